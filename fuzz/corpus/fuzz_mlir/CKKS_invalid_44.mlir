
func.func @mod_drop_scale(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{must keep the scale (4.0 -> 2.0)}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
  return
}

