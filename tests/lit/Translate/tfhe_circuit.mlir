// The circuit table: wires 0..3 are the inputs' bits, op k writes wire 4 +
// k as [code, out, a, b, c] (0 AND, 4 XOR, 6 NOT, 7 MUX, 8 a known bit);
// "levels" counts blind-rotation layers (NOT adds none, MUX one; a MUX is
// two blind rotations and one key switch).
// RUN: ember-translate --emit-tfhe-circuit %s | FileCheck %s
// RUN: sed -e 's/module attributes .* {/module {/' %s | not ember-translate --emit-tfhe-circuit 2>&1 | FileCheck %s --check-prefix=NOPARAMS

// CHECK: "blind_rotations": 7,
// CHECK: "depth": 4,
// CHECK: "function": "f",
// CHECK: "input_bits": 4,
// CHECK: "inputs": [
// CHECK: "signed": false,
// CHECK-NEXT: "width": 2
// CHECK: "key_switches": 5,
// CHECK: "bootstrap_key_bytes": 54657024,
// CHECK: "levels": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 2,
// CHECK-NEXT: 3,
// CHECK-NEXT: 4,
// CHECK-NEXT: 0
// CHECK: "log2_gate_failure": -133
// CHECK: "ops": [
// CHECK-NEXT: [
// CHECK-NEXT: 4,
// CHECK-NEXT: 4,
// CHECK-NEXT: 0,
// CHECK-NEXT: 2,
// CHECK-NEXT: -1
// CHECK: "output_wires": [
// CHECK-NEXT: 9,
// CHECK-NEXT: 10
// CHECK: "params": "STD128",
// CHECK: "scheme": "tfhe",
// CHECK: "wires": 11
// NOPARAMS: module has no 'lwe.params' (run fhe-to-lwe first)
module attributes {lwe.params = "STD128"} {
  func.func @f(%x0: !lwe.bit, %x1: !lwe.bit, %y0: !lwe.bit, %y1: !lwe.bit) -> (!lwe.bit, !lwe.bit) attributes {lwe.input_signed = array<i1: false, false>, lwe.input_widths = array<i64: 2, 2>, lwe.output_signed = array<i1: false, false>, lwe.output_widths = array<i64: 1, 1>} {
    %a = lwe.gate "XOR", %x0, %y0
    %b = lwe.gate "AND", %x1, %y1
    %n = lwe.not %a
    %c = lwe.gate "AND", %n, %b
    %m = lwe.mux %c, %x0, %b
    %m2 = lwe.mux %b, %m, %x1
    %t = lwe.trivial 1
    return %m2, %t : !lwe.bit, !lwe.bit
  }
}
