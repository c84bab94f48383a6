
func.func @hoisted_count(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{has 2 offsets but 1 results}}
  %a = ckks.hoisted_rotate %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>
  return
}

