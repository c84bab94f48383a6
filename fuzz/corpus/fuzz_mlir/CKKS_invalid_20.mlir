
func.func @mul_degree(%x: !ckks.ct<8, level = 1, scale = 2.0, degree = 3>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.mul' operands must have degree 2 (relinearize first), got 3 and 2}}
  %a = ckks.mul %x, %y : !ckks.ct<8, level = 1, scale = 2.0, degree = 3>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

