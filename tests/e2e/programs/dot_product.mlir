// <x, w> for a plaintext weight vector w, the sum left in every slot.
func.func @dot_product(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %w = fhe.constant dense<[0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 0.125, -0.5]> : tensor<8xf64> -> !fhe.pt<8>
  %p = fhe.mul %x, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %r4 = fhe.rotate %p by 4 : !fhe.ct<8>
  %s4 = fhe.add %p, %r4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r2 = fhe.rotate %s4 by 2 : !fhe.ct<8>
  %s2 = fhe.add %s4, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r1 = fhe.rotate %s2 by 1 : !fhe.ct<8>
  %s1 = fhe.add %s2, %r1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s1 : !fhe.ct<8>
}
