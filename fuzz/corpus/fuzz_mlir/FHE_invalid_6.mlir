
func.func @unary_type(%x: !fhe.ct<4>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %r = "fhe.neg"(%x) : (!fhe.ct<4>) -> !fhe.ct<8>
  return
}

