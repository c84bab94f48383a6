
func.func @rescale_two(%x: !rns.poly<ntt, q[0:3]>) {
  // expected-error @+1 {{result must drop exactly the top Q limb}}
  %0 = rns.rescale %x : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:1]>
  return
}

