// x^(2^8) by eight squarings: a depth-8 chain, inputs in [0.99, 1.01]
// (declared: x^256 reaches 1.01^256 = 12.8).
func.func @depth8(%x: !fhe.ct<8> {fhe.range = [0.99, 1.01]}) -> !fhe.ct<8> {
  %s0 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s1 = fhe.mul %s0, %s0 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s2 = fhe.mul %s1, %s1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s3 = fhe.mul %s2, %s2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s4 = fhe.mul %s3, %s3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s5 = fhe.mul %s4, %s4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s6 = fhe.mul %s5, %s5 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s7 = fhe.mul %s6, %s6 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s7 : !fhe.ct<8>
}
