
func.func @decompose_short(%x: !rns.poly<ntt, q[0:5]>) {
  // expected-error @+1 {{digits end at q4, input at q5}}
  %0:2 = rns.decompose %x : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>
  return
}

