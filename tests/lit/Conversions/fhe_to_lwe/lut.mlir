// A table lookup is a MUX tree per output bit with the table's bits at the
// leaves, folded: table [3, 0, 2, 1] has output bit 0 = [1, 0, 0, 1] (x0
// selects between known leaves: NOT x0 and x0, then x1 selects) and bit 1
// = [1, 0, 1, 0] = NOT x0 (x1 does not matter: no gate).
// RUN: ember-opt --fhe-to-lwe --cse %s | FileCheck %s

// CHECK-LABEL: func.func @lut(
// CHECK-SAME: %[[X0:[^:]*]]: !lwe.bit, %[[X1:[^:]*]]: !lwe.bit)
// CHECK: %[[N0:.*]] = lwe.not %[[X0]]
// CHECK: %[[B0:.*]] = lwe.mux %[[X1]], %[[X0]], %[[N0]]
// CHECK-NOT: lwe.mux
// CHECK: return %[[B0]], %[[N0]]
func.func @lut(%x: !fhe.eint<2>) -> !fhe.eint<2> {
  %y = fhe.int_lut %x [3, 0, 2, 1] : !fhe.eint<2> -> !fhe.eint<2>
  return %y : !fhe.eint<2>
}
