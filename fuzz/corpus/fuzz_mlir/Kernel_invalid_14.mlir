
func.func @encode_missing_value() {
  // expected-error @+1 {{encode needs a dense 'value' of slot values and a float 'scale', and gives one polynomial}}
  %y = kernel.call "encode"() {scale = 2.0 : f64} : () -> !rns.poly<ntt, q[0:2]>
  return
}

