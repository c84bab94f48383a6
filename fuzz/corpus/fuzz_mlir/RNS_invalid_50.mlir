
func.func @mul_inv_huge(%x: !rns.poly<ntt, q[0:1]>) {
  // expected-error @+1 {{divisor basis must be non-empty ranges}}
  %y = rns.mul_inv %x, q[1:4294967297], p[0:0] : !rns.poly<ntt, q[0:1]>
  return
}

