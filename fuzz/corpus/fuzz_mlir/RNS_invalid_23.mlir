
func.func @mod_down_keeps_p(%x: !rns.poly<ntt, q[0:4], p[0:2]>) {
  // expected-error @+1 {{result must be a non-empty prefix of the input's Q limbs in the input's form}}
  %0 = rns.mod_down %x : !rns.poly<ntt, q[0:4], p[0:2]> -> !rns.poly<ntt, q[0:4], p[0:1]>
  return
}

