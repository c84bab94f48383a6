
func.func @drop_grow(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{result basis must be a sub-basis of the input's}}
  %0 = rns.drop_limbs %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

