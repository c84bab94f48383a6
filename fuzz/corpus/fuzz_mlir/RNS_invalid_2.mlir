
// expected-error @+1 {{empty Q range q[3:2]}}
func.func private @bad_range(!rns.poly<ntt, q[3:2]>)

