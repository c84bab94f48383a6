
func.func @concat_gap(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[3:4]>) {
  // expected-error @+1 {{parts must be disjoint and cover the result basis}}
  %0 = rns.concat %a, %b : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[3:4]> -> !rns.poly<ntt, q[0:4]>
  return
}

