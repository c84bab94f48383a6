// x + rot(x, 1) + ... + rot(x, 8) over 16 slots: the hoisted sum of 8
// rotations that bench/gpu_e2e.sh times with and without hoisting.
func.func @rot8_sum(%x: !fhe.ct<16>) -> !fhe.ct<16> {
  %r1 = fhe.rotate %x by 1 : !fhe.ct<16>
  %r2 = fhe.rotate %x by 2 : !fhe.ct<16>
  %r3 = fhe.rotate %x by 3 : !fhe.ct<16>
  %r4 = fhe.rotate %x by 4 : !fhe.ct<16>
  %r5 = fhe.rotate %x by 5 : !fhe.ct<16>
  %r6 = fhe.rotate %x by 6 : !fhe.ct<16>
  %r7 = fhe.rotate %x by 7 : !fhe.ct<16>
  %r8 = fhe.rotate %x by 8 : !fhe.ct<16>
  %s1 = fhe.add %x, %r1 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s2 = fhe.add %s1, %r2 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s3 = fhe.add %s2, %r3 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s4 = fhe.add %s3, %r4 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s5 = fhe.add %s4, %r5 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s6 = fhe.add %s5, %r6 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s7 = fhe.add %s6, %r7 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s8 = fhe.add %s7, %r8 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  return %s8 : !fhe.ct<16>
}
