
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_level0(%x: !ckks.ct<8, level = 0, scale = 4.0>) {
    // expected-error @+1 {{cannot rescale at level 0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 0, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
    return
  }
}

