// Unknown parameter set, unknown security level, unknown bootstrap phase,
// a word size that is neither 32, 64 nor auto, a 32-bit set asked for at 64
// bits.
// RUN: ember-opt --split-input-file --fhe-to-ckks=params=D %s --verify-diagnostics
// RUN: not ember-opt --fhe-to-ckks=security=80 %s 2>&1 | FileCheck %s --check-prefix=SEC
// RUN: not ember-opt --fhe-to-ckks=bootstrap-stop-after=cts %s 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not ember-opt --fhe-to-ckks=word=16 %s 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: not ember-opt "--fhe-to-ckks=word=auto word-margin=1.5" %s 2>&1 | FileCheck %s --check-prefix=MARGIN
// RUN: not ember-opt "--fhe-to-ckks=params=cheddar32 word=64" %s 2>&1 | FileCheck %s --check-prefix=DP

// SEC: security must be 128 or none, got '80'
// STOP: bootstrap-stop-after must be coeff_to_slot or eval_mod, got 'cts'
// WORD: word must be 64, 32 or auto, got '16'
// MARGIN: word-margin = 1.5{{.*}} is outside [0, 1)
// DP: parameter set 'cheddar32' is for 32-bit words, but word = 64 was asked for
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{unknown parameter set 'D' (expected A, B, C, athena40, athena24, athena47, cheddar32 or cheddar32k1)}}
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %a : !fhe.ct<8>
}
