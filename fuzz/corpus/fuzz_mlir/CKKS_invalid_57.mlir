
func.func @scale_overflow(%x: !ckks.ct<8, level = 1, scale = 1.0e200>) {
  // expected-error @+1 {{'ckks.mul' result scale 9.9999999999999997e+199 * 9.9999999999999997e+199 overflows a double}}
  %y = ckks.mul %x, %x : !ckks.ct<8, level = 1, scale = 1.0e200>, !ckks.ct<8, level = 1, scale = 1.0e200>
  return
}

