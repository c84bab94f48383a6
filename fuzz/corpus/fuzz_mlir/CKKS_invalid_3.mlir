
// expected-error @+1 {{slot count must be positive, got 0}}
func.func @bad_slots(%x: !ckks.ct<0, level = 1, scale = 2.0>) {
  return
}

