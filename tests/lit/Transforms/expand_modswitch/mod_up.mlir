// RUN: ember-opt --rns-expand-modswitch %s | FileCheck %s
// ModUp per digit: INTT of the digit, BConv to the limbs below and above it
// (and P), NTT of those, and the digit's own NTT-form limbs kept as they are.

// CHECK-LABEL: func.func @mod_up
// CHECK-SAME: (%[[D0:.*]]: !rns.poly<ntt, q[0:3]>, %[[D1:.*]]: !rns.poly<ntt, q[3:5]>)
// First digit q[0:3]: only limbs above it.
// CHECK: %[[C0:.*]] = rns.intt %[[D0]] : !rns.poly<ntt, q[0:3]> -> !rns.poly<coeff, q[0:3]>
// CHECK: %[[B0:.*]] = rns.bconv %[[C0]] : !rns.poly<coeff, q[0:3]> -> !rns.poly<coeff, q[3:5], p[0:2]>
// CHECK: %[[N0:.*]] = rns.ntt %[[B0]] : !rns.poly<coeff, q[3:5], p[0:2]> -> !rns.poly<ntt, q[3:5], p[0:2]>
// CHECK: %[[R0:.*]] = rns.concat %[[D0]], %[[N0]] : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:5], p[0:2]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// Last digit q[3:5]: limbs below it and P.
// CHECK: %[[C1:.*]] = rns.intt %[[D1]]
// CHECK: %[[LO:.*]] = rns.bconv %[[C1]] : !rns.poly<coeff, q[3:5]> -> !rns.poly<coeff, q[0:3]>
// CHECK: %[[NLO:.*]] = rns.ntt %[[LO]]
// CHECK: %[[HI:.*]] = rns.bconv %[[C1]] : !rns.poly<coeff, q[3:5]> -> !rns.poly<coeff, p[0:2]>
// CHECK: %[[NHI:.*]] = rns.ntt %[[HI]]
// CHECK: %[[R1:.*]] = rns.concat %[[NLO]], %[[D1]], %[[NHI]] : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:5]>, !rns.poly<ntt, p[0:2]> -> !rns.poly<ntt, q[0:5], p[0:2]>
// CHECK-NOT: rns.mod_up
// CHECK: return %[[R0]], %[[R1]]
func.func @mod_up(%d0: !rns.poly<ntt, q[0:3]>, %d1: !rns.poly<ntt, q[3:5]>) -> (!rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>) {
  %u:2 = rns.mod_up %d0, %d1 : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[3:5]> -> !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
  return %u#0, %u#1 : !rns.poly<ntt, q[0:5], p[0:2]>, !rns.poly<ntt, q[0:5], p[0:2]>
}

// Negative: ops that are not modulus switches stay.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: rns.automorphism
// CHECK-NEXT: rns.add
// CHECK-NEXT: return
func.func @untouched(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  %0 = rns.automorphism %x, 5 : !rns.poly<ntt, q[0:2]>
  %1 = rns.add %0, %x : !rns.poly<ntt, q[0:2]>
  return %1 : !rns.poly<ntt, q[0:2]>
}
