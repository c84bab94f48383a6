
func.func @mod_up_no_p(%d: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{results must be over Q_l u P in NTT form}}
  %0 = rns.mod_up %d : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[0:4]>
  return
}

