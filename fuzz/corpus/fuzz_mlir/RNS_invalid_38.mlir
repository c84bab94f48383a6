
func.func @hybrid_ip_klss_key(%k: !rns.klss_evk<dnum = 2, groups = 3, t = 4>, %d: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{must be rns evaluation key}}
  %a0, %a1 = rns.ks_inner_product %k(%d) : !rns.klss_evk<dnum = 2, groups = 3, t = 4>, (!rns.poly<ntt, q[0:4], p[0:2]>) -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

