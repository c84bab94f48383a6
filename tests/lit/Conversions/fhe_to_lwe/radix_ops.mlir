// Radix blocks: bitwise operations are one table of 4 a_i + b_i per block
// (nu2 = 17); NOT is 3 - a_i (no table); a 6-bit product is the partial
// products' halves (tables of 4 a_i + b_j), a column reduction and the
// carry-lookahead sum; a table of a 4-bit input is one table per output
// block of x_0 + 4 x_1, of an 8-bit input candidates selected block by
// block (144 tables for 8 output bits).
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true" --cse %s | FileCheck %s

// CHECK-LABEL: func.func @bitwise(
// CHECK: %[[P0:.*]] = lwe.linear %arg0, %arg3 * [4, 1] + 0
// CHECK: lwe.lut %[[P0]], [0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0, 1, 2, 3] {hi = 15 : i64, lo = 0 : i64, nu2 = 17 : i64}
// CHECK: %[[P2:.*]] = lwe.linear %arg2, %arg5 * [4, 1] + 0
// The top block of a 5-bit integer holds 1 bit.
// CHECK: lwe.lut %[[P2]], [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 5 : i64, lo = 0 : i64, nu2 = 17 : i64}
// CHECK-NOT: lwe.lut
// CHECK: lwe.linear %{{.*}} * [-1] + 3
// CHECK: lwe.linear %{{.*}} * [-1] + 1
// CHECK: return
func.func @bitwise(%a: !fhe.eint<5>, %b: !fhe.eint<5>) -> !fhe.eint<5> {
  %x = fhe.int_and %a, %b : !fhe.eint<5>
  %n = fhe.int_not %x : !fhe.eint<5>
  return %n : !fhe.eint<5>
}

// CHECK-LABEL: func.func @mul(
// CHECK-COUNT-12: lwe.lut
// CHECK-NOT: lwe.lut
func.func @mul(%a: !fhe.eint<6>, %b: !fhe.eint<6>) -> !fhe.eint<6> {
  %p = fhe.int_mul %a, %b : !fhe.eint<6>
  return %p : !fhe.eint<6>
}

// CHECK-LABEL: func.func @lut4(
// CHECK: %[[I:.*]] = lwe.linear %arg0, %arg1 * [1, 4] + 0
// CHECK: %[[L0:.*]] = lwe.lut %[[I]], [3, 0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 1] {hi = 15 : i64, lo = 0 : i64, nu2 = 17 : i64}
// CHECK: %[[L1:.*]] = lwe.lut %[[I]], [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
// CHECK-NOT: lwe.lut
// CHECK: return %[[L0]], %[[L1]]
func.func @lut4(%x: !fhe.eint<4>) -> !fhe.eint<4> {
  %y = fhe.int_lut %x [3, 0, 2, 1, 7, 4, 6, 5, 11, 8, 10, 9, 15, 12, 14, 13] : !fhe.eint<4> -> !fhe.eint<4>
  return %y : !fhe.eint<4>
}
