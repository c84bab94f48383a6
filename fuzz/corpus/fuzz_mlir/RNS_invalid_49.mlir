
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @mul_inv_past_chain(%x: !rns.poly<ntt, q[0:1]>) {
    // expected-error @+1 {{divisor q[1:2], p[0:2] reaches past the module's 2 Q and 1 P primes}}
    %y = rns.mul_inv %x, q[1:2], p[0:2] : !rns.poly<ntt, q[0:1]>
    return
  }
}

