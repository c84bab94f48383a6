
// expected-error @+1 {{expected 'ntt' or 'coeff', got 'eval'}}
func.func private @bad_form(!rns.poly<eval, q[0:2]>)

