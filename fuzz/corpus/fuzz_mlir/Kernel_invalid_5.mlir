
// first + count would overflow int64.
func.func @view_overflow(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{limb range [9223372036854775807:1] does not fit}}
  %y = kernel.view %x[9223372036854775807:1] : !rns.poly<ntt, q[0:2]> -> !rns.poly<ntt, q[1:2]>
  return
}

