
func.func @rotate_range(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{offset -8 is outside (-8, 8)}}
  %a = ckks.rotate %x by -8 : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

