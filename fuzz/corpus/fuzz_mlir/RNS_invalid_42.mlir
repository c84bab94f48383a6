
// Under #ckks.params (2 Q primes, 1 P prime, no T), types index the chain.
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @q_past_chain(%x: !rns.poly<ntt, q[0:3]>) {
    // expected-error @+1 {{type '!rns.poly<ntt, q[0:3]>' reaches past q1, the last of the 2 Q primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, q[0:3]>
    return
  }
}

