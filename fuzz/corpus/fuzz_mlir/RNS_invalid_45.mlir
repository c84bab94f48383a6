
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @key_shape() {
    // expected-error @+1 {{key type '!rns.evk<dnum = 2, q = 3, p = 1>' does not match the module's parameters (dnum = 2, q = 2, p = 1)}}
    %k = rns.load_key relin : !rns.evk<dnum = 2, q = 3, p = 1>
    return
  }
}

