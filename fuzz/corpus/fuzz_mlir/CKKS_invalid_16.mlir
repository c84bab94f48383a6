
func.func @add_levels(%x: !ckks.ct<8, level = 2, scale = 2.0>, %y: !ckks.ct<8, level = 1, scale = 2.0>) {
  // expected-error @+1 {{'ckks.add' operands are at different levels (2 vs 1); mod_drop the higher one}}
  %a = ckks.add %x, %y : !ckks.ct<8, level = 2, scale = 2.0>, !ckks.ct<8, level = 1, scale = 2.0>
  return
}

