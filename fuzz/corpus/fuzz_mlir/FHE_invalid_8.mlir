
// expected-error @+1 {{slot count must be a power of two, got 12}}
func.func @plain_slots(%x: !fhe.pt<12>) {
  return
}

