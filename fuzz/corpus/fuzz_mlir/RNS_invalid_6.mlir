
func.func @ntt_form(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{maps coeff form to ntt form}}
  %0 = rns.ntt %x : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:2]>
  return
}

