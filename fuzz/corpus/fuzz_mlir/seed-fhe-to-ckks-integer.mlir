module {
  func.func @chebyshev_t2(%x: !fhe.ct<8>) -> !fhe.ct<8> {
    %two = fhe.constant dense<2.0> : tensor<8xf64> -> !fhe.pt<8>
    %one = fhe.constant dense<1.0> : tensor<8xf64> -> !fhe.pt<8>
    %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %t = fhe.mul %two, %x2 : (!fhe.pt<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %r = fhe.sub %t, %one : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
    return %r : !fhe.ct<8>
  }
}
