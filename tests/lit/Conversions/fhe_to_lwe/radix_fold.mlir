// Known blocks fold: a table constant over its input's range is a known
// block, one that is the identity or a complement there costs nothing.
// x + 0, x - 0, x * 1 and x ^ 15 need no table; x & 0 is a known block;
// x + 8 changes only the top block (one table); x < 0 is false.
// RUN: ember-opt --fhe-to-lwe="params=TOY_4BIT_MR insecure=true" --cse %s | FileCheck %s

// CHECK-LABEL: func.func @free(
// CHECK-NOT: lwe.lut
// CHECK: %[[N0:.*]] = lwe.linear %arg0 * [-1] + 3
// CHECK: %[[N1:.*]] = lwe.linear %arg1 * [-1] + 3
// CHECK: %[[Z:.*]] = lwe.block_constant 0
// CHECK: return %arg0, %arg1, %arg0, %arg1, %arg0, %arg1, %[[N0]], %[[N1]], %[[Z]], %[[Z]], %[[Z]]
func.func @free(%x: !fhe.eint<4>) -> (!fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<1>) {
  %zero = fhe.int_constant 0 : !fhe.eint<4>
  %one = fhe.int_constant 1 : !fhe.eint<4>
  %all = fhe.int_constant 15 : !fhe.eint<4>
  %a = fhe.int_add %x, %zero : !fhe.eint<4>
  %s = fhe.int_sub %x, %zero : !fhe.eint<4>
  %m = fhe.int_mul %x, %one : !fhe.eint<4>
  %n = fhe.int_xor %x, %all : !fhe.eint<4>
  %z = fhe.int_and %x, %zero : !fhe.eint<4>
  %f = fhe.int_cmp "lt", %x, %zero : !fhe.eint<4> -> !fhe.eint<1>
  return %a, %s, %m, %n, %z, %f : !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<4>, !fhe.eint<1>
}

// CHECK-LABEL: func.func @top_only(
// CHECK: %[[T:.*]] = lwe.linear %arg1 * [1] + 2
// CHECK: %[[O:.*]] = lwe.lut %[[T]], [0, 0, 2, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 5 : i64, lo = 2 : i64, nu2 = 1 : i64}
// CHECK-NOT: lwe.lut
// CHECK: return %arg0, %[[O]]
func.func @top_only(%x: !fhe.eint<4>) -> !fhe.eint<4> {
  %eight = fhe.int_constant 8 : !fhe.eint<4>
  %a = fhe.int_add %x, %eight : !fhe.eint<4>
  return %a : !fhe.eint<4>
}
