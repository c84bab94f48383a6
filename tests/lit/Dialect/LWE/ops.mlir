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
