
func.func @rescale_mixed(%x: !rns.poly<ntt, q[0:3]>, %y: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{all inputs must have one type}}
  %0:2 = rns.rescale %x, %y : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  return
}

