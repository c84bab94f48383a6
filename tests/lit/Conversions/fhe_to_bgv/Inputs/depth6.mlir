// (not a test) x^64: depth 6.
func.func @f(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %1 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %2 = fhe.mul %1, %1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %3 = fhe.mul %2, %2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %4 = fhe.mul %3, %3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %5 = fhe.mul %4, %4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %6 = fhe.mul %5, %5 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %6 : !fhe.ct<8>
}
