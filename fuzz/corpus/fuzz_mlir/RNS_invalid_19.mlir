
func.func @mod_up_outside(%d: !rns.poly<ntt, q[4:6]>) {
  // expected-error @+1 {{must be an NTT-form sub-range of the Q part}}
  %0 = rns.mod_up %d : !rns.poly<ntt, q[4:6]> -> !rns.poly<ntt, q[0:5], p[0:2]>
  return
}

