
func.func @relin_degree2(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.relinearize' needs a degree-3 operand, got degree 2}}
  %a = ckks.relinearize %x : !ckks.ct<8, level = 1, scale = 2.0>
  return
}

