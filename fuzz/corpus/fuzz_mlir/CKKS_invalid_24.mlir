
func.func @sub_plain_slots(%x: !ckks.ct<8, level = 1, scale = 2.0>, %p: !ckks.pt<4, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.sub_plain' operands have different slot counts (8 vs 4)}}
  %a = ckks.sub_plain %x, %p : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<4, level = 1, scale = 2.0>
  return
}

