
func.func @mul_coeff(%x: !rns.poly<coeff, q[0:2]>) {
  // expected-error @+1 {{operands must be in NTT form}}
  %0 = rns.mul %x, %x : !rns.poly<coeff, q[0:2]>
  return
}

