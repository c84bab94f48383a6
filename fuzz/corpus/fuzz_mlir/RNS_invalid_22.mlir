
func.func @ip_basis(%d: !rns.poly<ntt, q[0:4], p[0:2]>) {
  %k = rns.load_key relin : !rns.evk<dnum = 2, q = 4, p = 1>
  // expected-error @+1 {{must be NTT-form over Q_l u P within the key's basis}}
  %a:2 = rns.ks_inner_product %k(%d) : !rns.evk<dnum = 2, q = 4, p = 1>, (!rns.poly<ntt, q[0:4], p[0:2]>) -> !rns.poly<ntt, q[0:4], p[0:2]>, !rns.poly<ntt, q[0:4], p[0:2]>
  return
}

