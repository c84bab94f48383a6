
func.func @mul_inv_empty(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{divisor basis must be non-empty ranges}}
  %0 = rns.mul_inv %x, q[4:4], p[0:0] : !rns.poly<ntt, q[0:4]>
  return
}

