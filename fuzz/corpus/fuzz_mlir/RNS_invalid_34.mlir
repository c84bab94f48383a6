
func.func @klss_ip_t_mismatch(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 5>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{must be NTT-form over the key's T basis t[0:5]}}
  %a0, %a1 = rns.klss_inner_product %k(%t) : !rns.klss_evk<dnum = 2, groups = 3, t = 5>, (!rns.poly<ntt, t[0:4]>) -> !rns.poly<coeff, q[0:6], p[0:2]>, !rns.poly<coeff, q[0:6], p[0:2]>
  return
}

