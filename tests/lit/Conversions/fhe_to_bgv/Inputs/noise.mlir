// (not a test) x times 200 eight times: no level is spent (|200| <= 2^8),
// the noise grows by 200 each time.
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %c = fhe.constant dense<200.0> : tensor<8xf64> -> !fhe.pt<8>
  %1 = fhe.mul %x, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %2 = fhe.mul %1, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %3 = fhe.mul %2, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %4 = fhe.mul %3, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %5 = fhe.mul %4, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %6 = fhe.mul %5, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %7 = fhe.mul %6, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %8 = fhe.mul %7, %c : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %8 : !fhe.ct<8>
}
