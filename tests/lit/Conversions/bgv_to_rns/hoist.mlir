// Rotations of one BGV (or BFV) value share one ModUp: bgv-to-rns lowers
// each rotation hoisted (c1 raised first, the automorphism applied to the
// raised digits and to c0) and the pipeline's CSE merges the identical
// decompose + mod_up; each rotation keeps its own key and inner product,
// and rns-merge-moddown sums the three accumulators before one ModDown. hoisting=false raises each
// rotated c1 (three ModUps).
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bgv}" %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bfv}" %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bgv hoisting=false}" %s | FileCheck %s --check-prefix=OFF

// CHECK: rns.decompose %arg1
// CHECK: rns.mod_up {{.*}}ks.kind = "hoisted x3"
// CHECK-NOT: rns.mod_up
// CHECK-COUNT-3: rns.ks_inner_product
// CHECK-NOT: rns.mod_up
// CHECK: rns.mod_down
// CHECK-NOT: rns.mod_down

// OFF-COUNT-3: rns.mod_up
func.func @f(%a: !fhe.ct<8> {ember.name = "a"}) -> !fhe.ct<8> {
  %r1 = fhe.rotate %a by 1 : !fhe.ct<8>
  %r2 = fhe.rotate %a by 2 : !fhe.ct<8>
  %r3 = fhe.rotate %a by 3 : !fhe.ct<8>
  %s = fhe.add %r1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.add %s, %r3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
