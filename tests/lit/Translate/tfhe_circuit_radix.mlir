// A radix circuit as the runtime's table (format 2): wires 0..3 are the
// inputs' blocks; [9, out, a, b, form] is a linear form (forms[form] = [x,
// y, c]), [10, out, a, table, -1] a table (tables[table]), [11, out, v, -1,
// -1] a known block. Forms and tables are listed once each; a table is one
// level, a linear op none. Keys at STD128_4BIT_MR: 740 x 2 keys x 4 rows of
// two 2048-word polynomials (97 MB), key switching in 4-byte words.
// RUN: ember-translate --emit-tfhe-circuit %s | FileCheck %s
// RUN: sed -e 's/lwe.encoding = "radix", //' %s | not ember-translate --emit-tfhe-circuit 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK: "blind_rotations": 3,
// CHECK: "block_bits": 2,
// CHECK: "block_modulus": 16,
// CHECK: "depth": 2,
// CHECK: "encoding": "radix",
// CHECK: "format": 2,
// CHECK: "forms": [
// CHECK-NEXT: [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 0
// CHECK-NEXT: ],
// CHECK-NEXT: [
// CHECK-NEXT: -1,
// CHECK-NEXT: 0,
// CHECK-NEXT: 3
// CHECK-NEXT: ]
// CHECK-NEXT: ],
// CHECK: "input_bits": 4,
// CHECK: "bootstrap_key_bytes": 96993280,
// CHECK-NEXT: "key_switch_key_bytes": 182108160
// CHECK: "levels": [
// CHECK-NEXT: 0,
// CHECK-NEXT: 1,
// CHECK-NEXT: 0,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 2,
// CHECK-NEXT: 2,
// CHECK-NEXT: 0
// CHECK-NEXT: ],
// CHECK: "log2_pbs_failure_worst": -61.{{[0-9]+}},
// CHECK: "ops": [
// CHECK-NEXT: [
// CHECK-NEXT: 9,
// CHECK-NEXT: 4,
// CHECK-NEXT: 0,
// CHECK-NEXT: 2,
// CHECK-NEXT: 0
// CHECK-NEXT: ],
// CHECK-NEXT: [
// CHECK-NEXT: 10,
// CHECK-NEXT: 5,
// CHECK-NEXT: 4,
// CHECK-NEXT: 0,
// CHECK-NEXT: -1
// CHECK-NEXT: ],
// CHECK: "output_wires": [
// CHECK-NEXT: 5,
// CHECK-NEXT: 9,
// CHECK-NEXT: 11
// CHECK: "tables": [
// CHECK-NEXT: [
// CHECK-NEXT: 0,
// CHECK-NEXT: 1,
// CHECK-NEXT: 2,
// CHECK-NEXT: 3,
// CHECK-NEXT: 0,
// CHECK: "wires": 12
// MIXED: a bit circuit's arguments are '!lwe.bit', got '!lwe.block'
module attributes {lwe.encoding = "radix", lwe.params = "STD128_4BIT_MR"} {
  func.func @f(%x0: !lwe.block, %x1: !lwe.block, %y0: !lwe.block, %y1: !lwe.block) -> (!lwe.block, !lwe.block, !lwe.block) attributes {lwe.input_signed = array<i1: false, false>, lwe.input_widths = array<i64: 4, 4>, lwe.output_signed = array<i1: false, false>, lwe.output_widths = array<i64: 4, 1>} {
    %s0 = lwe.linear %x0, %y0 * [1, 1] + 0
    %o0 = lwe.lut %s0, [0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0] {lo = 0, hi = 6, nu2 = 2}
    %s1 = lwe.linear %x1, %y1 * [1, 1] + 0
    %c1 = lwe.lut %s0, [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] {lo = 0, hi = 6, nu2 = 2}
    %t1 = lwe.linear %s1, %c1 * [1, 1] + 0
    %o1 = lwe.lut %t1, [0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0] {lo = 0, hi = 7, nu2 = 3}
    %n = lwe.linear %o1 * [-1] + 3
    %k = lwe.block_constant 1
    return %o0, %o1, %k : !lwe.block, !lwe.block, !lwe.block
  }
}
