
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @galois_range(%x: !ckks.ct<8, level = 1, scale = 1024.0>) {
    // expected-error @+1 {{galois element 2049 must be below 2N = 2048}}
    %y = ckks.keyswitch %x galois 2049 : !ckks.ct<8, level = 1, scale = 1024.0>
    return
  }
}

