// p(x) = 0.5 x^3 - 1.5 x^2 + 0.25 x + 1 (Horner form, depth 3).
func.func @poly_eval(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a3 = fhe.constant dense<0.5> : tensor<8xf64> -> !fhe.pt<8>
  %a2 = fhe.constant dense<-1.5> : tensor<8xf64> -> !fhe.pt<8>
  %a1 = fhe.constant dense<0.25> : tensor<8xf64> -> !fhe.pt<8>
  %a0 = fhe.constant dense<1.0> : tensor<8xf64> -> !fhe.pt<8>
  %t0 = fhe.mul %x, %a3 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %t1 = fhe.add %t0, %a2 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %t2 = fhe.mul %t1, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t3 = fhe.add %t2, %a1 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %t4 = fhe.mul %t3, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t5 = fhe.add %t4, %a0 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %t5 : !fhe.ct<8>
}
