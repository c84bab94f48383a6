
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @galois_past_2n(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{Galois element 2049 must be below 2N = 2048}}
    %y = rns.automorphism %x, 2049 : !rns.poly<ntt, q[0:2]>
    return
  }
}

