// (3 - x, -x) and x itself: after CSE the outputs share polynomials (the
// negated c1 part, and x twice), which the emitted code must copy, not move
// twice.
func.func @shared_outputs(%x: !fhe.ct<8>) -> (!fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>) {
  %n = fhe.neg %x : !fhe.ct<8>
  %c = fhe.constant dense<3.0> : tensor<8xf64> -> !fhe.pt<8>
  %d = fhe.add %n, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %d, %n, %x, %x : !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>
}
