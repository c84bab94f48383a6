
func.func @digits_type(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'digits' must be an array<i64> of digit indices}}
  %y = kernel.call "mod_up"(%x) {digits = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

