// Value ranges at 32-bit words: the level-0 modulus is q_0 and the base
// pair (about 2^(30 + scale)), so values keep 30 bits above the scale, and
// the scale cannot come down below the pairs' smallest (2^42 at N = 2^13).
// A value of 2^30.9 does not fit: word=32 names it, the headroom and the
// remedies; word=auto does not take 32 bits for it (64 bits lower the
// scale to 2^27 instead).
// RUN: not ember-opt "--fhe-to-ckks=word=32" %s 2>&1 | FileCheck %s --check-prefix=W32
// RUN: ember-opt "--fhe-to-ckks=word=auto" %s | FileCheck %s --check-prefix=AUTO

// W32: error: the value at {{.*}} can reach magnitude 2e+09 (2^30.90); at 32-bit words the level-0 modulus (q_0 and the base pair, 2^72.0) holds it at the chain's scale 2^42.0 only below 2^28.0 (magnitude x scale x 2^1 of noise margin < Q_0 / 2), and the pairs allow no smaller scale at this ring: declare smaller input ranges, scale the values down, or compile with word=64
// AUTO: #ckks.params<logN = 13, {{.*}}logScale = 27, dnum = 1, security = 128>
// AUTO-NOT: word = 32
func.func @f(%x: !fhe.ct<8> {fhe.range = [-1.0e9, 1.0e9]}) -> !fhe.ct<8> {
  %y = fhe.add %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %y : !fhe.ct<8>
}
