
func.func @mod_drop_slots(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{changes the slot count (8 -> 4)}}
  %a = ckks.mod_drop %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<4, level = 0, scale = 4.0>
  return
}

