
func.func @klss_ip_too_many(%k: !rns.klss_evk<dnum = 1, groups = 3, t = 4>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{has 2 digits but the key only 1}}
  %a0, %a1 = rns.klss_inner_product %k(%t, %t) : !rns.klss_evk<dnum = 1, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>, !rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
  return
}

