
func.func @load_key_even() {
  // expected-error @+1 {{Galois element must be a positive odd integer, got 2}}
  %k = rns.load_key galois 2 : !rns.evk<dnum = 2, q = 4, p = 1>
  return
}

