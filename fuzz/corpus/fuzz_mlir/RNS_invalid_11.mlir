
func.func @drop_form(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{must keep the form}}
  %0 = rns.drop_limbs %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<coeff, q[0:1]>
  return
}

