
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @p_past_chain(%x: !rns.poly<ntt, q[0:2], p[0:2]>) {
    // expected-error @+1 {{reaches past the 1 P primes of the module's parameters}}
    %y = rns.neg %x : !rns.poly<ntt, q[0:2], p[0:2]>
    return
  }
}

