
// expected-error @+1 {{slot count must be a power of two, got 12}}
func.func @odd_slots(%x: !ckks.ct<12, level = 1, scale = 2.0>) {
  return
}

