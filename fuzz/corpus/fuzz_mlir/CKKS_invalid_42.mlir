
func.func @rescale_degree(%x: !ckks.ct<8, level = 1, scale = 4.0, degree = 3>) {
  // expected-error @+1 {{changes the degree (3 -> 2)}}
  %a = ckks.rescale %x : !ckks.ct<8, level = 1, scale = 4.0, degree = 3> -> !ckks.ct<8, level = 0, scale = 2.0>
  return
}

