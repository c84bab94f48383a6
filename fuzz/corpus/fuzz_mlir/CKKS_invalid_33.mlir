
func.func @hoisted_range(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{offset 9 is outside (-8, 8)}}
  %a:2 = ckks.hoisted_rotate %x by [1, 9] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

