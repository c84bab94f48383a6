
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @t_without_klss(%x: !rns.poly<ntt, t[0:1]>) {
    // expected-error @+1 {{reaches past the 0 KLSS T primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, t[0:1]>
    return
  }
}

