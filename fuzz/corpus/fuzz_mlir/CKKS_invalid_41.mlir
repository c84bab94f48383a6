
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  // The module verifier sees the argument's level first.
  // expected-error @+1 {{type '!ckks.ct<8, level = 3, scale = 1.2089258196146292e+24>' is at level 3, beyond the module's maximum level 1 (2 Q primes)}}
  func.func @rescale_above_max(%x: !ckks.ct<8, level = 3, scale = 1.2089258196146292e+24>) {
    %a = ckks.rescale %x : !ckks.ct<8, level = 3, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 2, scale = 1.0>
    return
  }
}

