
func.func @klss_mod_up_not_t(%x: !rns.poly<ntt, q[0:4]>) {
  %d:2 = rns.decompose %x : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]>
  // expected-error @+1 {{results must be NTT-form polynomials over T (t[0:R])}}
  %t:2 = rns.klss_mod_up %d#0, %d#1 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[2:4]> -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

