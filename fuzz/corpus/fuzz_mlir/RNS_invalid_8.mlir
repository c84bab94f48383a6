
func.func @bconv_ntt(%x: !rns.poly<ntt, p[0:2]>) {
  // expected-error @+1 {{works in coefficient form}}
  %0 = rns.bconv %x : !rns.poly<ntt, p[0:2]> -> !rns.poly<ntt, q[0:3]>
  return
}

