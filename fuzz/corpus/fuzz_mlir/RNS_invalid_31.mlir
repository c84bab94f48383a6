
// expected-error @+1 {{a polynomial over KLSS temporary primes t[0:4] cannot also hold Q or P limbs}}
func.func @t_with_q(%x: !rns.poly<ntt, q[0:2], t[0:4]>) {
  return
}

