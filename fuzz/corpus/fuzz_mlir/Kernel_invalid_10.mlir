
func.func @digits_count(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{mod_up has 2 digits for 1 results}}
  %y = kernel.call "mod_up"(%x) {digits = array<i64: 0, 1>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
  return
}

