
// More than N/2 of the largest ring (N = 2^17).
// expected-error @+1 {{slot count 131072 exceeds 65536 (N/2 of the largest ring, N = 2^17)}}
func.func @too_many_slots(%x: !fhe.ct<131072>) {
  return
}
