
func.func @mod_drop_up(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{result level 2 must be below the input level 1}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 2, scale = 4.0>
  return
}

