
func.func @fused_yield(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{yielded types must match the results' types}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
    rns.yield
  }
  return
}

