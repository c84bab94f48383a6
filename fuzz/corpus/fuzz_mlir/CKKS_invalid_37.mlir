
func.func @rescale_no_params(%x: !ckks.ct<8, level = 1, scale = 4.0>) {
  // expected-error @+1 {{needs the module's 'ckks.params' to know q_1}}
  %a = ckks.rescale %x : !ckks.ct<8, level = 1, scale = 4.0> -> !ckks.ct<8, level = 0, scale = 2.0>
  return
}

