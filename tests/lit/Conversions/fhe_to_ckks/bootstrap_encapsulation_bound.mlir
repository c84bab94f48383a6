// RUN: ember-opt "--fhe-to-ckks=log-n=16 scale-bits=58" %s --verify-diagnostics
// RUN: ember-opt "--fhe-to-ckks=log-n=16 scale-bits=58 word=32" %s --verify-diagnostics
// Bootstrapping's encapsulation key s -> s' lives at Q_0 p_0 under the
// published bound for a Hamming-weight-32 secret (117 bits at N = 2^16).
// At a 2^58 scale Q_0 p_0 is above it at either word (64 bits: a 68-bit
// q_0 and a 60-bit p_0; 32 bits: q_0 and the base pair, 88 bits, and a
// 30-bit p_0): the error names the key and the bound, not a depth.

func.func @f(%x: !fhe.ct<32768>) -> !fhe.ct<32768> {
  // expected-error-re @+1 {{bootstrapping's encapsulation key s -> s' lives at Q_0 p_0 (the level-0 modulus and one special prime): {{(128|118)}} bits at a 2^58 scale, above the 117-bit 128-bit bound for its Hamming-weight-32 secret at N = 2^16: lower scale-bits, or compile with encapsulate=False (a sparse main secret)}}
  %b = fhe.bootstrap %x : !fhe.ct<32768>
  return %b : !fhe.ct<32768>
}
