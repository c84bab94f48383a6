
func.func @hoisted_sum_empty(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{needs at least one offset}}
  %a = ckks.hoisted_rotate_sum %x by [] : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

