// Bootstrapping has no 32-bit lowering yet: word=32 refuses it at the
// bootstrap, and word=auto keeps such a program at 64 bits.
// RUN: ember-opt "--fhe-to-ckks=word=32 security=none" %s --verify-diagnostics
// RUN: ember-opt "--fhe-to-ckks=word=auto security=none" %s | FileCheck %s

// CHECK-NOT: word = 32
// CHECK: ckks.mod_raise
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  // expected-error @+1 {{bootstrapping is not supported at 32-bit words yet: compile this program with word=64}}
  %b = fhe.bootstrap %x : !fhe.ct<8>
  return %b : !fhe.ct<8>
}
