
func.func @hoisted_type(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{result #1 type '!ckks.ct<8, level = 0, scale = 2.0>' differs from the input type}}
  %a:2 = ckks.hoisted_rotate %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 0, scale = 2.0>
  return
}

