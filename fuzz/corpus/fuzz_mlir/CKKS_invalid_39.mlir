
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @rescale_two_levels(%x: !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>) {
    // expected-error @+1 {{result level must be 1 (input level - 1), got 0}}
    %a = ckks.rescale %x : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 0, scale = 1099512365055.4944>
    return
  }
}

