
func.func @hoisted_degree3(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>) {
  // expected-error @+1 {{operand #0 has degree 3}}
  %a = ckks.hoisted_rotate_sum %x by [1, 2] : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
  return
}

