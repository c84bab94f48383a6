// Bootstrapping at 32-bit words (double-prime scaling). Level 0 is
// Q_0 = q_0 and the base pair, about 2^30 S_0, so the expansion first
// multiplies the input by an integer near 2^20 (ckks.mul_int, no level) to
// put the message 2^10 below Q_0 as at 64 bits, and EvalMod reads it at
// S_0 times that integer. The procedure's pairs carry 2^59 at the top of
// the chain (5.76e17). word=auto keeps a bootstrapping program at 64 bits.
// RUN: ember-opt "--fhe-to-ckks=word=32 security=none" %s | FileCheck %s
// RUN: ember-opt "--fhe-to-ckks=word=auto security=none" %s | FileCheck %s --check-prefix=AUTO

// CHECK: word = 32, scalePrimes = 2
// CHECK-LABEL: func.func @f
// CHECK: ckks.mul_int %arg0, {{10[0-9][0-9][0-9][0-9][0-9]}} : !ckks.ct<8, level = 1,
// CHECK: ckks.mod_raise {{.*}} {encapsulate, input_scale = {{.*}}} : !ckks.ct<8, level = 0, {{.*}}> -> !ckks.ct<4096, level = 17, scale = 5.76460{{[0-9]*}}e+17>
// AUTO-NOT: word = 32
// AUTO-NOT: ckks.mul_int %arg0
// AUTO: ckks.mod_raise
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %b = fhe.bootstrap %x : !fhe.ct<8>
  return %b : !fhe.ct<8>
}
