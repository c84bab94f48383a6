// A 2-bit adder: bit 0 is one XOR and its carry one AND; bit 1 is two XORs
// (the last carry is not computed).
// RUN: ember-opt --fhe-to-lwe --cse %s | FileCheck %s

// CHECK: module attributes {lwe.params = "STD128"}
// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[X0:.*]]: !lwe.bit, %[[X1:.*]]: !lwe.bit, %[[Y0:.*]]: !lwe.bit, %[[Y1:.*]]: !lwe.bit) -> (!lwe.bit, !lwe.bit)
// CHECK-SAME: lwe.input_signed = array<i1: false, false>, lwe.input_widths = array<i64: 2, 2>
// CHECK-SAME: lwe.output_widths = array<i64: 2>
// CHECK: %[[S0:.*]] = lwe.gate "XOR", %[[X0]], %[[Y0]]
// CHECK: %[[NS0:.*]] = lwe.not %[[S0]]
// CHECK: %[[C1:.*]] = lwe.gate "AND", %[[NS0]], %[[X0]]
// CHECK: %[[T1:.*]] = lwe.gate "XOR", %[[X1]], %[[Y1]]
// CHECK: %[[S1:.*]] = lwe.gate "XOR", %[[T1]], %[[C1]]
// CHECK-NOT: lwe.mux
// CHECK: return %[[S0]], %[[S1]]
func.func @add(%x: !fhe.eint<2>, %y: !fhe.eint<2>) -> !fhe.eint<2> {
  %s = fhe.int_add %x, %y : !fhe.eint<2>
  return %s : !fhe.eint<2>
}
