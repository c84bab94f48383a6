
// Rounding the scale to 2^40 after a rescale is wrong: it is 2^80 / q_2.
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_rounded_scale(%x: !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>) {
    // expected-error @+1 {{result scale must be input scale / q_2 = 1099512365055.4944, got 1099511627776.0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    return
  }
}

