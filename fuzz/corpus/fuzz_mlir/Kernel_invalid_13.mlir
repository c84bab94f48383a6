
func.func @klss_level(%k: !rns.klss_evk<dnum = 1, groups = 1, t = 1>, %d: !rns.poly<ntt, t[0:1]>) {
  // expected-error @+1 {{level -1 is outside 0..}}
  %a:2 = kernel.call "klss_inner_product"(%k, %d) {level = -1 : i64} : (!rns.klss_evk<dnum = 1, groups = 1, t = 1>, !rns.poly<ntt, t[0:1]>) -> (!rns.poly<coeff, q[0:1], p[0:1]>, !rns.poly<coeff, q[0:1], p[0:1]>)
  return
}

