
// Under parameters, slots are bounded by N/2 = 512 (here in a signature, as
// ckks-record-interface would copy it into the manifest).
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 18433], P = [40961], logScale = 10, dnum = 2, security = 0>} {
  // expected-error @+1 {{type '!ckks.ct<1024, level = 1, scale = 1024.0>' has 1024 slots, more than N/2 = 512 of the module's parameters (logN = 10)}}
  func.func @wide(%x: !ckks.ct<1024, level = 1, scale = 1024.0>) -> !ckks.ct<1024, level = 1, scale = 1024.0> {
    return %x : !ckks.ct<1024, level = 1, scale = 1024.0>
  }
}

