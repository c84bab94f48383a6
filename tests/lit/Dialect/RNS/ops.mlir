// RUN: ember-opt %s | ember-opt | FileCheck %s
// Round trip of every rns type and op (printed, reparsed, printed again).

// CHECK-LABEL: func.func @types
// CHECK-SAME: !rns.poly<ntt, q[0:6]>, %{{.*}}: !rns.poly<coeff, p[0:4]>, %{{.*}}: !rns.poly<ntt, q[0:6], p[0:4]>, %{{.*}}: !rns.poly<coeff, q[5:6], p[0:4]>
func.func @types(%a: !rns.poly<ntt, q[0:6]>, %b: !rns.poly<coeff, p[0:4]>,
                 %c: !rns.poly<ntt, q[0:6], p[0:4]>,
                 %d: !rns.poly<coeff, q[5:6], p[0:4]>) {
  return
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%x: !rns.poly<ntt, q[0:3]>, %y: !rns.poly<ntt, q[0:3]>) -> !rns.poly<ntt, q[0:3]> {
  // CHECK: %[[Z:.*]] = rns.zero : !rns.poly<ntt, q[0:3]>
  %z = rns.zero : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.add %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:3]>
  %0 = rns.add %x, %y : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.sub
  %1 = rns.sub %0, %z : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.mul
  %2 = rns.mul %1, %y : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.neg
  %3 = rns.neg %2 : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.mul_const %{{.*}}, 3 : !rns.poly<ntt, q[0:3]>
  %4 = rns.mul_const %3, 3 : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.automorphism %{{.*}}, 25 : !rns.poly<ntt, q[0:3]>
  %5 = rns.automorphism %4, 25 : !rns.poly<ntt, q[0:3]>
  // CHECK: rns.mul_p %{{.*}} : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:3], p[0:2]>
  %6 = rns.mul_p %5 : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:3], p[0:2]>
  return %5 : !rns.poly<ntt, q[0:3]>
}

// CHECK-LABEL: func.func @basis
func.func @basis(%x: !rns.poly<ntt, q[0:3], p[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // CHECK: rns.drop_limbs %{{.*}} : !rns.poly<ntt, q[0:3], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  %q = rns.drop_limbs %x : !rns.poly<ntt, q[0:3], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  // CHECK: rns.intt %{{.*}} : !rns.poly<ntt, q[0:3], p[0:2]> -> !rns.poly<coeff, q[0:3], p[0:2]>
  %c = rns.intt %x : !rns.poly<ntt, q[0:3], p[0:2]> -> !rns.poly<coeff, q[0:3], p[0:2]>
  %p = rns.drop_limbs %q : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>
  // CHECK: rns.drop_limbs %{{.*}} : !rns.poly<coeff, q[0:3], p[0:2]> -> !rns.poly<coeff, p[0:2]>
  %pc = rns.drop_limbs %c : !rns.poly<coeff, q[0:3], p[0:2]> -> !rns.poly<coeff, p[0:2]>
  // CHECK: rns.bconv %{{.*}} : !rns.poly<coeff, p[0:2]> -> !rns.poly<coeff, q[0:3]>
  %b = rns.bconv %pc : !rns.poly<coeff, p[0:2]> -> !rns.poly<coeff, q[0:3]>
  // CHECK: rns.ntt %{{.*}} : !rns.poly<coeff, q[0:3]> -> !rns.poly<ntt, q[0:3]>
  %n = rns.ntt %b : !rns.poly<coeff, q[0:3]> -> !rns.poly<ntt, q[0:3]>
  // CHECK: rns.rescale %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  %r:2 = rns.rescale %n, %q : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  return %r#0 : !rns.poly<ntt, q[0:2]>
}

// CHECK-LABEL: func.func @keyswitch
func.func @keyswitch(%c0: !rns.poly<ntt, q[0:5]>, %c1: !rns.poly<ntt, q[0:5]>) -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:4]>) {
  // CHECK: rns.decompose %{{.*}} : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>, !rns.poly<ntt, q[4:5]>
  %d:3 = rns.decompose %c1 : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>, !rns.poly<ntt, q[4:5]>
  // CHECK: rns.mod_up
  %u:3 = rns.mod_up %d#0, %d#1, %d#2 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>, !rns.poly<ntt, q[4:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
  // CHECK: rns.load_key galois 25 : !rns.evk<dnum = 3, q = 6, p = 2>
  %k = rns.load_key galois 25 : !rns.evk<dnum = 3, q = 6, p = 2>
  // CHECK: rns.load_key relin : !rns.evk<dnum = 3, q = 6, p = 2>
  %r = rns.load_key relin : !rns.evk<dnum = 3, q = 6, p = 2>
  // CHECK: rns.load_key to_sparse : !rns.evk<dnum = 1, q = 1, p = 1>
  %ts = rns.load_key to_sparse : !rns.evk<dnum = 1, q = 1, p = 1>
  // CHECK: rns.load_key from_sparse : !rns.evk<dnum = 3, q = 6, p = 2>
  %fs = rns.load_key from_sparse : !rns.evk<dnum = 3, q = 6, p = 2>
  // CHECK: rns.ks_inner_product %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}) : !rns.evk<dnum = 3, q = 6, p = 2>, (!rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>) -> !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
  %a:2 = rns.ks_inner_product %k(%u#0, %u#1, %u#2) : !rns.evk<dnum = 3, q = 6, p = 2>, (!rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>) -> !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
  // CHECK: rns.mod_down %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
  %m:2 = rns.mod_down %a#0, %a#1 : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>
  // Merged ModDown + rescale: divide by P * q_4.
  // CHECK: rns.mod_down %{{.*}} : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>
  %merged = rns.mod_down %a#1 : !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>
  // Merged, with a lifted addend for the first input (P * y + acc).
  // CHECK: rns.mod_down %{{.*}}, %{{.*}} lifted(%{{.*}} : !rns.poly<ntt, q[0:5]>) : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
  %lifted:2 = rns.mod_down %a#0, %a#1 lifted(%m#0 : !rns.poly<ntt, q[0:5]>) : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
  return %m#0, %merged : !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:4]>
}

// CHECK-LABEL: func.func @fused
func.func @fused(%x: !rns.poly<coeff, q[0:3]>, %y: !rns.poly<ntt, q[0:3]>) -> !rns.poly<ntt, q[0:3]> {
  // CHECK: rns.fused(%{{.*}}, %{{.*}}) : (!rns.poly<coeff, q[0:3]>, !rns.poly<ntt, q[0:3]>) -> !rns.poly<ntt, q[0:3]> {
  // CHECK: ^bb0(%{{.*}}: !rns.poly<coeff, q[0:3]>, %{{.*}}: !rns.poly<ntt, q[0:3]>):
  // CHECK: rns.ntt
  // CHECK: rns.add
  // CHECK: rns.yield %{{.*}} : !rns.poly<ntt, q[0:3]>
  %r = rns.fused(%x, %y) : (!rns.poly<coeff, q[0:3]>, !rns.poly<ntt, q[0:3]>) -> !rns.poly<ntt, q[0:3]> {
  ^bb0(%a: !rns.poly<coeff, q[0:3]>, %b: !rns.poly<ntt, q[0:3]>):
    %n = rns.ntt %a : !rns.poly<coeff, q[0:3]> -> !rns.poly<ntt, q[0:3]>
    %s = rns.add %n, %b : !rns.poly<ntt, q[0:3]>
    rns.yield %s : !rns.poly<ntt, q[0:3]>
  }
  return %r : !rns.poly<ntt, q[0:3]>
}

// CHECK-LABEL: func.func @expanded
func.func @expanded(%lo: !rns.poly<ntt, q[0:2]>, %hi: !rns.poly<ntt, q[2:3], p[0:1]>) -> !rns.poly<ntt, q[0:3], p[0:1]> {
  // CHECK: rns.concat %{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:3], p[0:1]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  %c = rns.concat %lo, %hi : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:3], p[0:1]> -> !rns.poly<ntt, q[0:3], p[0:1]>
  // CHECK: rns.mul_inv %{{.*}}, q[2:3], p[0:1] : !rns.poly<ntt, q[0:2]>
  %d = rns.mul_inv %lo, q[2:3], p[0:1] : !rns.poly<ntt, q[0:2]>
  // CHECK: rns.encode dense<1.000000e+00> : tensor<4xf64>, 2.000000e+00 : !rns.poly<ntt, q[0:2]>
  %e = rns.encode dense<1.0> : tensor<4xf64>, 2.0 : !rns.poly<ntt, q[0:2]>
  return %c : !rns.poly<ntt, q[0:3], p[0:1]>
}
