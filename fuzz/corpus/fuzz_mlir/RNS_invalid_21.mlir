
func.func @ip_too_many(%d: !rns.poly<ntt, q[0:4], p[0:1]>) {
  %k = rns.load_key relin : !rns.evk<dnum = 2, q = 4, p = 1>
  // expected-error @+1 {{has 3 digits but the key only 2}}
  %a:2 = rns.ks_inner_product %k(%d, %d, %d) : !rns.evk<dnum = 2, q = 4, p = 1>, (!rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>) -> !rns.poly<ntt, q[0:4], p[0:1]>, !rns.poly<ntt, q[0:4], p[0:1]>
  return
}

