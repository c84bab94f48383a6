// Comparisons of 8-bit integers in radix blocks: a < b is the carry out of
// a + ~b + 1, negated: four block states d_i = a_i - b_i + 3 (+ 1 at block
// 0) and one table of their weighted sum (5 tables, 2 levels). Signed: the
// top block's state reads the pair 4 a_3 + b_3 (its sign bits flipped),
// nu2 = 17. Equality: [a_i - b_i + 3 == 3] per block, then [sum == 4].
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true" --cse %s | FileCheck %s

// CHECK-LABEL: func.func @lt(
// CHECK: %[[D0:.*]] = lwe.linear %arg0, %arg4 * [1, -1] + 4
// CHECK: lwe.lut %[[D0]], [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 7 : i64, lo = 1 : i64, nu2 = 2 : i64}
// CHECK: lwe.linear %arg1, %arg5 * [1, -1] + 3
// CHECK-COUNT-3: lwe.lut
// CHECK: lwe.lut %{{.*}}, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] {hi = 15 : i64, lo = 0 : i64, nu2 = 4 : i64}
// CHECK-NOT: lwe.lut
// CHECK: %[[LT:.*]] = lwe.linear %{{.*}} * [-1] + 1
// CHECK: return %[[LT]] : !lwe.block
func.func @lt(%a: !fhe.eint<8>, %b: !fhe.eint<8>) -> !fhe.eint<1> {
  %c = fhe.int_cmp "lt", %a, %b : !fhe.eint<8> -> !fhe.eint<1>
  return %c : !fhe.eint<1>
}

// CHECK-LABEL: func.func @lt_signed(
// CHECK: %[[P:.*]] = lwe.linear %arg3, %arg7 * [4, 1] + 0
// CHECK: lwe.lut %[[P]], [{{.*}}] {hi = 15 : i64, lo = 0 : i64, nu2 = 17 : i64}
// CHECK-COUNT-1: lwe.lut %{{.*}} {hi = 15 : i64, lo = 0 : i64, nu2 = 4 : i64}
func.func @lt_signed(%a: !fhe.esint<8>, %b: !fhe.esint<8>) -> !fhe.eint<1> {
  %c = fhe.int_cmp "lt", %a, %b : !fhe.esint<8> -> !fhe.eint<1>
  return %c : !fhe.eint<1>
}

// CHECK-LABEL: func.func @eq(
// CHECK-COUNT-4: lwe.lut %{{.*}}, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 6 : i64, lo = 0 : i64, nu2 = 2 : i64}
// CHECK: %[[E:.*]] = lwe.lut %{{.*}}, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 4 : i64, lo = 0 : i64, nu2 = 4 : i64}
// CHECK-NOT: lwe.lut
// CHECK: return %[[E]]
func.func @eq(%a: !fhe.eint<8>, %b: !fhe.eint<8>) -> !fhe.eint<1> {
  %c = fhe.int_cmp "eq", %a, %b : !fhe.eint<8> -> !fhe.eint<1>
  return %c : !fhe.eint<1>
}
