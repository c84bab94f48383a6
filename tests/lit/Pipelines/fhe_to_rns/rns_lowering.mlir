// End to end: fhe -> ckks -> rns with every optimisation, then with the rns
// and hoisting optimisations switched off; the cost report shows the gain.
// RUN: ember-opt --ember-pipeline=fhe-to-rns %s | FileCheck %s
// RUN: ember-opt --ember-pipeline=fhe-to-rns --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=COST
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{expand-modswitch=true}" %s | FileCheck %s --check-prefix=EXPAND --implicit-check-not=rns.mod_up --implicit-check-not=rns.mod_down --implicit-check-not=rns.rescale
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{hoisting=false merge-moddown=false fusion=false}" --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=NOOPT

// (x*y + rot1 + rot2 + rot3 of it) * x: a relinearisation, a hoisted sum of
// three rotations (one ModUp, one ModDown), a second multiplication.

// CHECK-LABEL: func.func @poly
// CHECK-SAME: (%{{.*}}: !rns.poly<ntt, q[0:3]>, %{{.*}}: !rns.poly<ntt, q[0:3]>, %{{.*}}: !rns.poly<ntt, q[0:3]>, %{{.*}}: !rns.poly<ntt, q[0:3]>)
// CHECK-NOT: ckks.
// Relinearisation of x*y.
// CHECK: rns.load_key relin
// CHECK: rns.mod_up
// CHECK: rns.ks_inner_product
// CHECK: rns.mod_down
// CHECK: rns.fused
// The rotation sum: one ModUp, three Galois keys, one ModDown merged with the
// rescale (to q[0:2]).
// CHECK: rns.mod_up
// CHECK-NOT: rns.mod_up
// CHECK: rns.load_key galois 5
// CHECK: rns.load_key galois 25
// CHECK: rns.load_key galois 125
// CHECK-NOT: rns.mul_p
// CHECK: rns.mod_down {{.*}} lifted({{.*}}) : {{.*}} -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
// CHECK-NOT: rns.rescale
// CHECK: return {{.*}} : !rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>

// With expand-modswitch the structured ops are gone, and each ModDown's
// subtract and scale run in its NTT's epilogue.
// EXPAND-LABEL: func.func @poly
// EXPAND: rns.bconv
// EXPAND: rns.fused
// EXPAND-NEXT: ^bb0
// EXPAND-NEXT: rns.ntt
// EXPAND-NEXT: rns.sub
// EXPAND-NEXT: rns.mul_inv

// COST-LABEL: ember-cost-report @poly (N = 2^13
// COST: mod_up: 3
// COST-NEXT: mod_down: 3
// COST-NEXT: rescale: 0
// COST-NEXT: modulus switches: 3
// COST-NEXT: ks_inner_product: 5
// The merged ModDowns read P * y + acc in place: no mul_p/add regions.
// COST: fusion regions: 5

// NOOPT-LABEL: ember-cost-report @poly (N = 2^13
// NOOPT: mod_up: 5
// NOOPT-NEXT: mod_down: 5
// NOOPT-NEXT: rescale: 2
// NOOPT-NEXT: modulus switches: 7
// NOOPT-NEXT: ks_inner_product: 5
// NOOPT: fusion regions: 0

func.func @poly(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r1 = fhe.rotate %m by 1 : !fhe.ct<8>
  %r2 = fhe.rotate %m by 2 : !fhe.ct<8>
  %r3 = fhe.rotate %m by 3 : !fhe.ct<8>
  %s1 = fhe.add %m, %r1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s2 = fhe.add %s1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s3 = fhe.add %s2, %r3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.mul %s3, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
