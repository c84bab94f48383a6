// Unknown parameter set, unknown security level, unknown bootstrap phase,
// a 32-bit double-prime set (not compiled yet).
// RUN: ember-opt --split-input-file --fhe-to-ckks=params=D %s --verify-diagnostics
// RUN: not ember-opt --fhe-to-ckks=security=80 %s 2>&1 | FileCheck %s --check-prefix=SEC
// RUN: not ember-opt --fhe-to-ckks=bootstrap-stop-after=cts %s 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not ember-opt --fhe-to-ckks=params=cheddar32 %s 2>&1 | FileCheck %s --check-prefix=DP

// SEC: security must be 128 or none, got '80'
// STOP: bootstrap-stop-after must be coeff_to_slot or eval_mod, got 'cts'
// DP: parameter set 'cheddar32' uses double-prime scaling at 32-bit words, which compiled programs do not support yet
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{unknown parameter set 'D' (expected A, B, C, athena40, athena24 or athena47)}}
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %a : !fhe.ct<8>
}
