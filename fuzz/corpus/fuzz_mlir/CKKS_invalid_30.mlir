
func.func @hoisted_empty(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{needs at least one offset}}
  "ckks.hoisted_rotate"(%x) {offsets = array<i64>} : (!ckks.ct<8, level = 1, scale = 2.0>) -> ()
  return
}

