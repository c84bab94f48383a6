
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @digit_past_dnum(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{digit index 2 is outside 0..1}}
    %y = kernel.call "mod_up"(%x) {digits = array<i64: 2>} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2], p[0:1]>
    return
  }
}

