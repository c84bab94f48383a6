
// expected-error @+1 {{'ckks.params' belongs on a module}}
func.func @params_on_func() attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {
  return
}

