
func.func @keyswitch_even(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{galois element must be odd and positive, got 4}}
  %a = ckks.keyswitch %x galois 4 : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

