// RUN: ember-opt --canonicalize %s | FileCheck %s
// Folds of the rns dialect: identities that appear after lowering.

// CHECK-LABEL: func.func @automorphism_one
// CHECK-NEXT: return %arg0
func.func @automorphism_one(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  %0 = rns.automorphism %x, 1 : !rns.poly<ntt, q[0:2]>
  return %0 : !rns.poly<ntt, q[0:2]>
}

// CHECK-LABEL: func.func @automorphism_other
// CHECK-NEXT: rns.automorphism %arg0, 5
func.func @automorphism_other(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  %0 = rns.automorphism %x, 5 : !rns.poly<ntt, q[0:2]>
  return %0 : !rns.poly<ntt, q[0:2]>
}

// CHECK-LABEL: func.func @ntt_intt
// CHECK-NEXT: return %arg0, %arg1
func.func @ntt_intt(%x: !rns.poly<ntt, q[0:2]>, %c: !rns.poly<coeff, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[0:2]>) {
  %0 = rns.intt %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:2]>
  %1 = rns.ntt %0 : !rns.poly<coeff, q[0:2]> -> !rns.poly<ntt, q[0:2]>
  %2 = rns.ntt %c : !rns.poly<coeff, q[0:2]> -> !rns.poly<ntt, q[0:2]>
  %3 = rns.intt %2 : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:2]>
  return %1, %3 : !rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[0:2]>
}

// CHECK-LABEL: func.func @zeros
// CHECK-NEXT: %[[Z:.*]] = rns.zero
// CHECK-NEXT: return %arg0, %arg0, %[[Z]], %arg0
func.func @zeros(%x: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
  %z = rns.zero : !rns.poly<ntt, q[0:2]>
  %0 = rns.add %z, %x : !rns.poly<ntt, q[0:2]>
  %1 = rns.sub %x, %z : !rns.poly<ntt, q[0:2]>
  %2 = rns.mul %x, %z : !rns.poly<ntt, q[0:2]>
  %3 = rns.add %x, %z : !rns.poly<ntt, q[0:2]>
  return %0, %1, %2, %3 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
}

// CHECK-LABEL: func.func @identities
// CHECK-NEXT: return %arg0, %arg0, %arg0
func.func @identities(%x: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
  %0 = rns.neg %x : !rns.poly<ntt, q[0:2]>
  %1 = rns.neg %0 : !rns.poly<ntt, q[0:2]>
  %2 = rns.mul_const %x, 1 : !rns.poly<ntt, q[0:2]>
  %3 = rns.drop_limbs %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:2]>
  return %1, %2, %3 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
}

// CHECK-LABEL: func.func @drop_of_drop
// CHECK-NEXT: %[[D:.*]] = rns.drop_limbs %arg0 : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:2]>
// CHECK-NEXT: return %[[D]]
func.func @drop_of_drop(%x: !rns.poly<ntt, q[0:4], p[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  %0 = rns.drop_limbs %x : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:3]>
  %1 = rns.drop_limbs %0 : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>
  return %1 : !rns.poly<ntt, q[0:2]>
}

// Negative: sub of x from zero and mul_const by 2 stay.
// CHECK-LABEL: func.func @kept
// CHECK: rns.sub
// CHECK: rns.mul_const %{{.*}}, 2
func.func @kept(%x: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
  %z = rns.zero : !rns.poly<ntt, q[0:2]>
  %0 = rns.sub %z, %x : !rns.poly<ntt, q[0:2]>
  %1 = rns.mul_const %x, 2 : !rns.poly<ntt, q[0:2]>
  return %0, %1 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
}
