
func.func @add_result_type(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+2 {{inferred type(s) '!ckks.ct<8, level = 1, scale = 2.0>' are incompatible with return type(s) of operation '!ckks.ct<8, level = 1, scale = 4.0>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %a = "ckks.add"(%x, %x) : (!ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>) -> !ckks.ct<8, level = 1, scale = 4.0>
  return
}

