
// expected-error @+1 {{slot count 131072 exceeds 65536}}
func.func @too_many_slots(%x: !ckks.pt<131072, level = 1, scale = 2.0>) {
  return
}

