// A value too large for any scale down to 2^20 is refused at its line.
// x^4 at |x| <= 1e6 is 1e24 = 2^79.7: at 2^20 it needs 101.7 bits.
// RUN: ember-opt --fhe-to-ckks %s --verify-diagnostics -o /dev/null

func.func @f(%x: !fhe.ct<8> {fhe.range = [-1.0e6, 1.0e6]}) -> !fhe.ct<8> {
  %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  // expected-error @+1 {{range_too_large.mlir:8 can reach magnitude 1e+24 (2^79.73) for inputs in their declared ranges; even at the smallest scale the compiler lowers to, 2^20, it needs q_0 > 2^101.7 (magnitude x scale x 2^1 of noise margin < q_0 / 2), and q_0 has at most 60 bits: declare smaller input ranges, or scale the values down before they grow}}
  %x4 = fhe.mul %x2, %x2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %x4 : !fhe.ct<8>
}
