
func.func @klss_mod_up_gap(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[3:4]>) {
  // expected-error @+1 {{digit '!rns.poly<ntt, q[3:4]>' must be an NTT-form Q range continuing at q2}}
  %t:2 = rns.klss_mod_up %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:4]> -> !rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>
  return
}

