
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @klss_key_without_klss() {
    // expected-error @+1 {{KLSS key type '!rns.klss_evk<dnum = 1, groups = 2, t = 2>' does not match the module's parameters (no KLSS form; dnum = 2, groups = 3, t = 0)}}
    %k = rns.load_key relin : !rns.klss_evk<dnum = 1, groups = 2, t = 2>
    return
  }
}

