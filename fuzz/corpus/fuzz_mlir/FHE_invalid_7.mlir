
// Issue 11: !fhe.ct<7> reached the manifest.
// expected-error @+1 {{slot count must be a power of two, got 7}}
func.func @odd_slots(%x: !fhe.ct<7>) {
  return
}

