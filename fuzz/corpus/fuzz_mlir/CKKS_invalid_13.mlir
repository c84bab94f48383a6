
func.func @scale_adjust_on_add(%x: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.scale_adjust' is a unit attribute of ckks.mul_plain}}
  %a = ckks.add %x, %x {ckks.scale_adjust} : !ckks.ct<8, level = 1, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

