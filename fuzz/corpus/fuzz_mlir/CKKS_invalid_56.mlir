
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  // expected-error @+1 {{type '!ckks.pt<8, level = 2, scale = 1024.0>' is at level 2, beyond the module's maximum level 1 (2 Q primes)}}
  func.func private @deep() -> !ckks.pt<8, level = 2, scale = 1024.0>
}

