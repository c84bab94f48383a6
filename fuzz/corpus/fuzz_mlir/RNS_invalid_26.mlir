
func.func @fused_args(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{block arguments must match the inputs' types}}
  %r = rns.fused(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:3]>):
    %b = rns.drop_limbs %a : !rns.poly<ntt, q[0:3]> -> !rns.poly<ntt, q[0:2]>
    rns.yield %b : !rns.poly<ntt, q[0:2]>
  }
  return
}

