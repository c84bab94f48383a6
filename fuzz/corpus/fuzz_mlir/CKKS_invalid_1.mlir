
// expected-error @+1 {{level must be non-negative, got -1}}
func.func @bad_level(%x: !ckks.ct<8, level = -1, scale = 1099511627776.0>) {
  return
}

