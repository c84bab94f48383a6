// x + rot(x, 1) + ... + rot(x, 7): a hoisted sum of rotations.
func.func @rotation_sum(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %r1 = fhe.rotate %x by 1 : !fhe.ct<8>
  %r2 = fhe.rotate %x by 2 : !fhe.ct<8>
  %r3 = fhe.rotate %x by 3 : !fhe.ct<8>
  %r4 = fhe.rotate %x by 4 : !fhe.ct<8>
  %r5 = fhe.rotate %x by 5 : !fhe.ct<8>
  %r6 = fhe.rotate %x by 6 : !fhe.ct<8>
  %r7 = fhe.rotate %x by 7 : !fhe.ct<8>
  %s1 = fhe.add %x, %r1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s2 = fhe.add %s1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s3 = fhe.add %s2, %r3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s4 = fhe.add %s3, %r4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s5 = fhe.add %s4, %r5 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s6 = fhe.add %s5, %r6 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s7 = fhe.add %s6, %r7 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s7 : !fhe.ct<8>
}
