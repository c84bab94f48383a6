
// An empty body has no terminator: the verifier must not ask for one.
func.func @fused_empty(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{body must end in rns.yield}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
  }
  return
}
