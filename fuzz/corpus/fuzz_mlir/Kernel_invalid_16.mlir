
func.func @offsets_count(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'offsets' has 2 entries for 1 polynomial results}}
  %y = kernel.call "ntt"(%x) {offsets = array<i64: 0, 8>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  return
}

