
func.func @mod_down_no_p(%x: !rns.poly<ntt, q[0:4]>) {
  // expected-error @+1 {{input must be over Q_l u P}}
  %0 = rns.mod_down %x : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:3]>
  return
}

