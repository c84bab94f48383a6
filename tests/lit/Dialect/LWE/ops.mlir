// lwe ops round-trip; every verifier gives its error.
// RUN: ember-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @gates
func.func @gates(%a: !lwe.bit, %b: !lwe.bit) -> (!lwe.bit, !lwe.bit, !lwe.bit) {
  // CHECK: lwe.gate "NAND", %{{.*}}, %{{.*}}
  %n = lwe.gate "NAND", %a, %b
  // CHECK: lwe.not %{{.*}}
  %x = lwe.not %n
  // CHECK: lwe.mux %{{.*}}, %{{.*}}, %{{.*}}
  %m = lwe.mux %x, %a, %b
  // CHECK: lwe.trivial 1
  %one = lwe.trivial 1
  return %m, %one, %n : !lwe.bit, !lwe.bit, !lwe.bit
}

// -----

func.func @bad_gate(%a: !lwe.bit) {
  // expected-error @+1 {{unknown gate 'IMPLIES' (AND, OR, NAND, NOR, XOR, XNOR)}}
  %n = lwe.gate "IMPLIES", %a, %a
  return
}

// -----

func.func @bad_trivial() {
  // expected-error @+1 {{a bit is 0 or 1, got 2}}
  %t = lwe.trivial 2
  return
}

// -----

// CHECK-LABEL: func.func @blocks
func.func @blocks(%a: !lwe.block, %b: !lwe.block) -> (!lwe.block, !lwe.block) {
  // CHECK: lwe.linear %{{.*}}, %{{.*}} * [4, 1] + 0
  %s = lwe.linear %a, %b * [4, 1] + 0
  // CHECK: lwe.lut %{{.*}}, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] {hi = 15 : i64, lo = 0 : i64, nu2 = 17 : i64}
  %r = lwe.lut %s, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] {lo = 0, hi = 15, nu2 = 17}
  // CHECK: lwe.linear %{{.*}} * [-1] + 3
  %n = lwe.linear %r * [-1] + 3
  // CHECK: lwe.block_constant 31
  %c = lwe.block_constant 31
  return %n, %c : !lwe.block, !lwe.block
}

// -----

func.func @linear_arity(%a: !lwe.block) {
  // expected-error @+1 {{2 coefficients for 1 blocks}}
  %s = lwe.linear %a * [1, 2] + 0
  return
}

// -----

func.func @lut_size(%a: !lwe.block) {
  // expected-error @+1 {{a table of 16 entries (a block's values), got 4}}
  %r = lwe.lut %a, [0, 1, 2, 3]
  return
}

// -----

func.func @lut_entry(%a: !lwe.block) {
  // expected-error @+1 {{entry 3 = 16 is outside [0, 16)}}
  %r = lwe.lut %a, [0, 1, 2, 16, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]
  return
}

// -----

func.func @lut_range(%a: !lwe.block) {
  // expected-error @+1 {{the input's range [2, 16] is not within [0, 16)}}
  %r = lwe.lut %a, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] {lo = 2, hi = 16}
  return
}

// -----

func.func @bad_block() {
  // expected-error @+1 {{a block's value is in [0, 32), got 32}}
  %c = lwe.block_constant 32
  return
}
