
func.func @slot_mismatch(%x: !fhe.ct<4>, %y: !fhe.ct<8>) {
  // expected-error @+1 {{slot counts differ: 4, 8 -> 4}}
  %c = fhe.mul %x, %y : (!fhe.ct<4>, !fhe.ct<8>) -> !fhe.ct<4>
  return
}

