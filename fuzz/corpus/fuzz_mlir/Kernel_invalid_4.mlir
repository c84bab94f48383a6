
// An empty body has no terminator: the verifier must not ask for one.
func.func @launch_empty(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{body must yield one value per result}}
  %y = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
  }
  return
}

