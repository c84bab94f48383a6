
func.func @concat_form(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<coeff, q[2:4]>) {
  // expected-error @+1 {{parts must be in the result's form}}
  %0 = rns.concat %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[2:4]> -> !rns.poly<ntt, q[0:4]>
  return
}

