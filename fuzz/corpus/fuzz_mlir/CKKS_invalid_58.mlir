
func.func @scale_overflow_plain(%x: !ckks.ct<8, level = 1, scale = 1.0e200>, %p: !ckks.pt<8, level = 1, scale = 1.0e200>) {
  // expected-error @+1 {{'ckks.mul_plain' result scale}}
  %y = ckks.mul_plain %x, %p : !ckks.ct<8, level = 1, scale = 1.0e200>, !ckks.pt<8, level = 1, scale = 1.0e200>
  return
}

