
func.func @add_plain_scales(%x: !ckks.ct<8, level = 1, scale = 2.0>, %p: !ckks.pt<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{'ckks.add_plain' operands have different scales (2.0 vs 4.0)}}
  %a = ckks.add_plain %x, %p : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.pt<8, level = 1, scale = 4.0>
  return
}

