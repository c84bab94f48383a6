// Known bits fold: x + 1 on 3 bits needs no gate for bit 0 (NOT x0) and
// carries through ANDs and XORs only; x & 0 is the constant 0 (trivial
// bits, no gate); x * 2 is a shift (no gate at all).
// RUN: ember-opt --fhe-to-lwe --cse %s | FileCheck %s

// CHECK-LABEL: func.func @increment(
// CHECK-SAME: %[[X0:[^:]*]]: !lwe.bit, %[[X1:[^:]*]]: !lwe.bit, %[[X2:[^:]*]]: !lwe.bit)
// CHECK: %[[N0:.*]] = lwe.not %[[X0]]
// CHECK: %[[S1:.*]] = lwe.gate "XOR", %[[X1]], %[[X0]]
// CHECK: %[[C2:.*]] = lwe.gate "AND", %[[X1]], %[[X0]]
// CHECK: %[[S2:.*]] = lwe.gate "XOR", %[[X2]], %[[C2]]
// CHECK-NOT: lwe.mux
// CHECK: return %[[N0]], %[[S1]], %[[S2]]
func.func @increment(%x: !fhe.eint<3>) -> !fhe.eint<3> {
  %one = fhe.int_constant 1 : !fhe.eint<3>
  %s = fhe.int_add %x, %one : !fhe.eint<3>
  return %s : !fhe.eint<3>
}

// CHECK-LABEL: func.func @mask(
// CHECK-NOT: lwe.gate
// CHECK: %[[Z:.*]] = lwe.trivial 0
// CHECK: return %[[Z]], %[[Z]]
func.func @mask(%x: !fhe.eint<2>) -> !fhe.eint<2> {
  %zero = fhe.int_constant 0 : !fhe.eint<2>
  %m = fhe.int_and %x, %zero : !fhe.eint<2>
  return %m : !fhe.eint<2>
}

// CHECK-LABEL: func.func @double(
// CHECK-SAME: %[[X0:[^:]*]]: !lwe.bit, %[[X1:[^:]*]]: !lwe.bit, %{{[^:]*}}: !lwe.bit)
// CHECK-NOT: lwe.gate
// CHECK-NOT: lwe.mux
// CHECK: %[[Z:.*]] = lwe.trivial 0
// CHECK: return %[[Z]], %[[X0]], %[[X1]]
func.func @double(%x: !fhe.eint<3>) -> !fhe.eint<3> {
  %two = fhe.int_constant 2 : !fhe.eint<3>
  %m = fhe.int_mul %x, %two : !fhe.eint<3>
  return %m : !fhe.eint<3>
}
