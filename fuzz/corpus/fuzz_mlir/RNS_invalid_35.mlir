
func.func @klss_ip_ntt_acc(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 4>, %t: !rns.poly<ntt, t[0:4]>) {
  // expected-error @+1 {{accumulators must be two coefficient-form polynomials over Q_l u P}}
  %a0, %a1 = rns.klss_inner_product %k(%t) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, t[0:4]>) -> !rns.poly<ntt, q[0:6], p[0:2]>, !rns.poly<ntt, q[0:6], p[0:2]>
  return
}

