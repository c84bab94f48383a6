
func.func @rotate_range(%x: !fhe.ct<4>) {
  // expected-error @+1 {{offset 4 is outside (-4, 4)}}
  %r = fhe.rotate %x by 4 : !fhe.ct<4>
  return
}

