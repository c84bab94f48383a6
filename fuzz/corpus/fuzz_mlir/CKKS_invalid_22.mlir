
func.func @mul_plain_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %p: !ckks.pt<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul_plain' operands are at different levels (2 vs 1)}}
  %a = ckks.mul_plain %x, %p : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.pt<8, level = 1, scale = 2.0>
  return
}

