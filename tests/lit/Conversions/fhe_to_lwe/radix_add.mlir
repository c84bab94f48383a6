// An 8-bit add in radix blocks (STD128_4BIT_MR, where radix is the
// default): 4 blocks of 2 bits, 9 tables over 3 levels. Level 1: block 0's
// sum mod 4 and its generate bit, the states (2 g + p) << (i - 1) of blocks
// 1 and 2; level 2: the carries into blocks 2 and 3 (bits 1 and 2 of the
// states' sum) and block 1's output; level 3: blocks 2 and 3.
// RUN: ember-opt --fhe-to-lwe=params=STD128_4BIT_MR --cse %s | FileCheck %s
// RUN: ember-opt --fhe-to-lwe="params=STD128_4BIT_MR encoding=bits" --cse %s | FileCheck %s --check-prefix=BITS

// CHECK: module attributes {lwe.encoding = "radix", lwe.log2_failure = -61.7{{[0-9]*}} : f64, lwe.params = "STD128_4BIT_MR"}
// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[X0:[^:]*]]: !lwe.block, %[[X1:[^:]*]]: !lwe.block, %[[X2:[^:]*]]: !lwe.block, %[[X3:[^:]*]]: !lwe.block, %[[Y0:[^:]*]]: !lwe.block, %[[Y1:[^:]*]]: !lwe.block, %[[Y2:[^:]*]]: !lwe.block, %[[Y3:[^:]*]]: !lwe.block) -> (!lwe.block, !lwe.block, !lwe.block, !lwe.block)
// CHECK-SAME: lwe.input_widths = array<i64: 8, 8>
// CHECK: %[[S0:.*]] = lwe.linear %[[X0]], %[[Y0]] * [1, 1] + 0
// CHECK: %[[G0:.*]] = lwe.lut %[[S0]], [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 6 : i64, lo = 0 : i64, nu2 = 2 : i64}
// CHECK: %[[S1:.*]] = lwe.linear %[[X1]], %[[Y1]] * [1, 1] + 0
// CHECK: %[[T1:.*]] = lwe.lut %[[S1]], [0, 0, 0, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[C:.*]] = lwe.linear %[[G0]], %[[T1]] * [1, 1] + 0
// CHECK: %[[C2:.*]] = lwe.lut %[[C]], [0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 3 : i64, lo = 0 : i64, nu2 = 2 : i64}
// CHECK: %[[T2:.*]] = lwe.lut %{{.*}}, [0, 0, 0, 2, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[C3:.*]] = lwe.lut %{{.*}}, [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] {hi = 7 : i64, lo = 0 : i64, nu2 = 3 : i64}
// CHECK: %[[O0:.*]] = lwe.lut %[[S0]], [0, 1, 2, 3, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[O1:.*]] = lwe.lut
// CHECK: %[[O2:.*]] = lwe.lut
// CHECK: %[[O3:.*]] = lwe.lut
// CHECK-NOT: lwe.lut
// CHECK: return %[[O0]], %[[O1]], %[[O2]], %[[O3]]

// BITS: module attributes {lwe.params = "STD128_4BIT_MR"}
// BITS: lwe.gate "XOR"
// BITS-NOT: lwe.lut
func.func @add(%x: !fhe.eint<8>, %y: !fhe.eint<8>) -> !fhe.eint<8> {
  %s = fhe.int_add %x, %y : !fhe.eint<8>
  return %s : !fhe.eint<8>
}
