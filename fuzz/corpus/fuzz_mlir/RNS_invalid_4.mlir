
// expected-note @+1 {{prior use here}}
func.func @add_mismatch(%x: !rns.poly<ntt, q[0:2]>, %y: !rns.poly<ntt, q[0:3]>) {
  // expected-error @+1 {{use of value '%y' expects different type than prior uses}}
  %0 = rns.add %x, %y : !rns.poly<ntt, q[0:2]>
  return
}

