
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_galois_past_2n() {
    // expected-error @+1 {{Galois element 4095 must be below 2N = 2048}}
    %k = rns.load_key galois 4095 : !rns.evk<dnum = 2, q = 2, p = 1>
    return
  }
}

