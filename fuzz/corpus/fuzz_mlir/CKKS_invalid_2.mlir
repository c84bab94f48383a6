
// expected-error @+1 {{scale must be positive and finite}}
func.func @bad_scale(%x: !ckks.pt<8, level = 1, scale = -2.0>) {
  return
}

