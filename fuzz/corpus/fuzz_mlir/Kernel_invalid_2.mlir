
func.func @view_out_of_range(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[1:3]> {
  // expected-error @+1 {{limb range [1:2] does not fit}}
  %y = kernel.view %x[1:2] : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[1:3]>
  return %y : !rns.poly<ntt, q[1:3]>
}

