
func.func @bconv_overlap(%x: !rns.poly<coeff, q[2:3], p[0:2]>) {
  // expected-error @+1 {{source and target bases overlap}}
  %0 = rns.bconv %x : !rns.poly<coeff, q[2:3], p[0:2]> -> !rns.poly<coeff, q[0:3]>
  return
}

