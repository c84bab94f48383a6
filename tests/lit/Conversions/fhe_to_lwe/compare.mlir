// a < b carries lt = (a_i ^ b_i) ? b_i : lt from the least significant bit;
// signed comparisons complement the sign bits first; equality ANDs XNORs.
// RUN: ember-opt --fhe-to-lwe --cse %s | FileCheck %s

// CHECK-LABEL: func.func @lt(
// CHECK-SAME: %[[A0:[^:]*]]: !lwe.bit, %[[A1:[^:]*]]: !lwe.bit, %[[B0:[^:]*]]: !lwe.bit, %[[B1:[^:]*]]: !lwe.bit)
// CHECK-SAME: lwe.output_widths = array<i64: 1>
// CHECK: %[[D0:.*]] = lwe.gate "XOR", %[[A0]], %[[B0]]
// CHECK: %[[L0:.*]] = lwe.gate "AND", %[[D0]], %[[B0]]
// CHECK: %[[D1:.*]] = lwe.gate "XOR", %[[A1]], %[[B1]]
// CHECK: %[[L1:.*]] = lwe.mux %[[D1]], %[[B1]], %[[L0]]
// CHECK: return %[[L1]]
func.func @lt(%a: !fhe.eint<2>, %b: !fhe.eint<2>) -> !fhe.eint<1> {
  %c = fhe.int_cmp "lt", %a, %b : !fhe.eint<2> -> !fhe.eint<1>
  return %c : !fhe.eint<1>
}

// CHECK-LABEL: func.func @slt(
// CHECK-SAME: %[[A0:[^:]*]]: !lwe.bit, %[[A1:[^:]*]]: !lwe.bit, %[[B0:[^:]*]]: !lwe.bit, %[[B1:[^:]*]]: !lwe.bit)
// CHECK-SAME: lwe.input_signed = array<i1: true, true>
// CHECK: %[[NA1:.*]] = lwe.not %[[A1]]
// CHECK: %[[NB1:.*]] = lwe.not %[[B1]]
// CHECK: lwe.gate "XOR", %[[NA1]], %[[NB1]]
// CHECK: lwe.mux %{{.*}}, %[[NB1]], %{{.*}}
func.func @slt(%a: !fhe.esint<2>, %b: !fhe.esint<2>) -> !fhe.eint<1> {
  %c = fhe.int_cmp "lt", %a, %b : !fhe.esint<2> -> !fhe.eint<1>
  return %c : !fhe.eint<1>
}

// CHECK-LABEL: func.func @eq(
// CHECK: %[[E0:.*]] = lwe.gate "XNOR"
// CHECK: %[[E1:.*]] = lwe.gate "XNOR"
// CHECK: %[[E:.*]] = lwe.gate "AND", %[[E0]], %[[E1]]
// CHECK: %[[NE:.*]] = lwe.not %[[E]]
// CHECK: return %[[E]], %[[NE]]
func.func @eq(%a: !fhe.eint<2>, %b: !fhe.eint<2>) -> (!fhe.eint<1>, !fhe.eint<1>) {
  %e = fhe.int_cmp "eq", %a, %b : !fhe.eint<2> -> !fhe.eint<1>
  %n = fhe.int_cmp "ne", %a, %b : !fhe.eint<2> -> !fhe.eint<1>
  return %e, %n : !fhe.eint<1>, !fhe.eint<1>
}
