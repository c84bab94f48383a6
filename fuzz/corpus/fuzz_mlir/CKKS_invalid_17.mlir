
func.func @sub_scales(%x: !ckks.ct<8, level = 1, scale = 1099511627776.0>, %y: !ckks.ct<8, level = 1, scale = 1099512365055.4944>) {
  // expected-error @+1 {{'ckks.sub' operands have different scales (1099511627776.0 vs 1099512365055.4944)}}
  %a = ckks.sub %x, %y : !ckks.ct<8, level = 1, scale = 1099511627776.0>, !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  return
}

