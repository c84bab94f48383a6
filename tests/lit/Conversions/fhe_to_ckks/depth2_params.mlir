// Depth 2 (x*y, then times a constant), 8 slots: N = 2^13 is the smallest
// ring; Q = [60, 40, 40] bits (the 40-bit primes track the scale), and only dnum = 3 (one 60-bit P prime) keeps
// log2(QP) = 200 within 218. Ops are relinearized and rescaled eagerly
// (relinearized first: a rescale needs degree 2).
// RUN: ember-opt --fhe-to-ckks %s | FileCheck %s

// CHECK: module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511922689, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>}
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>)
// CHECK-SAME: -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %w = fhe.constant dense<0.5> : tensor<8xf64> -> !fhe.pt<8>
  // CHECK: %[[M:.*]] = ckks.mul %[[X]], %[[Y]]
  // CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[M]]
  // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[L]] : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 1, scale = 1099511775231.0198>
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  // The constant is encoded at the level of its use and at the
  // ciphertext's scale, so that the product's scale is that of a product of
  // two ciphertexts at this level.
  // CHECK-NEXT: %[[W:.*]] = ckks.encode dense<5.000000e-01> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099511775231.0198>
  // CHECK-NEXT: %[[MP:.*]] = ckks.mul_plain %[[R]], %[[W]]
  // CHECK-NEXT: %[[R2:.*]] = ckks.rescale %[[MP]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099511627773.0593>
  %b = fhe.mul %a, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  // CHECK-NEXT: return %[[R2]]
  return %b : !fhe.ct<8>
}
