
func.func @add_slots(%x: !ckks.ct<8, level = 1, scale = 2.0>, %y: !ckks.ct<4, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.add' operands have different slot counts (8 vs 4)}}
  %a = ckks.add %x, %y : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<4, level = 1, scale = 2.0>
  return
}

