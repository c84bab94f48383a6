
func.func @launch_arity(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  // expected-error @+1 {{body takes 2 arguments for 1 inputs}}
  %y = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>, %b: !rns.poly<ntt, q[0:2]>):
    kernel.yield %a : !rns.poly<ntt, q[0:2]>
  }
  return %y : !rns.poly<ntt, q[0:2]>
}

