
func.func @mul_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul' operands are at different levels (2 vs 1)}}
  %a = ckks.mul %x, %y : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

