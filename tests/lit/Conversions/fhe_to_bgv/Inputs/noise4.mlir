// (not a test) x times 200 three times: about 23 bits of noise growth that
// the depth-0 chain's q_0 (42 bits) does not hold; q_0 grows.
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %c = fhe.constant dense<200.0> : tensor<8xf64> -> !fhe.pt<8>
  %1 = fhe.mul %x, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %2 = fhe.mul %1, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %3 = fhe.mul %2, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %3 : !fhe.ct<8>
}
