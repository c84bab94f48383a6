
func.func @launch_bytes(%x: !rns.poly<ntt, q[0:2]>) {
  // expected-error @+1 {{'bytes' must be non-negative, got -1}}
  %y = kernel.launch "k0"(%x) {bytes = -1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
  ^bb0(%a: !rns.poly<ntt, q[0:2]>):
    kernel.yield %a : !rns.poly<ntt, q[0:2]>
  }
  return
}

