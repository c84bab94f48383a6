
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_galois_past_2n() {
    // expected-error @+1 {{Galois element 2049 must be below 2N = 2048}}
    %k = kernel.call "load_key"() {galois = 2049 : i64} : () -> !rns.evk<dnum = 2, q = 2, p = 1>
    return
  }
}

