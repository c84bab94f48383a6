
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  func.func @result_past_chain(%x: !rns.poly<ntt, q[0:2]>) {
    // expected-error @+1 {{type '!rns.poly<ntt, q[0:3]>' reaches past q1}}
    %y = kernel.call "ntt"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:3]>
    return
  }
}

