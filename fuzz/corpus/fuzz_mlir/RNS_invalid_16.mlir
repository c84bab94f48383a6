
func.func @decompose_gap(%x: !rns.poly<ntt, q[0:5]>) {
  // expected-error @+1 {{does not continue the tiling}}
  %0:2 = rns.decompose %x : !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:5]>
  return
}

