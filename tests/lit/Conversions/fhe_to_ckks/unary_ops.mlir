// neg, rotate and conjugate map one to one; depth 0 still gets one level.
// RUN: ember-opt --fhe-to-ckks %s | FileCheck %s

// CHECK: ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593], P = [1152921504606748673], logScale = 40, dnum = 1, security = 128>
// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<16, level = 0, scale = 1099511627776.0>) -> !ckks.ct<16, level = 0, scale = 1099511627776.0>
func.func @unary(%x: !fhe.ct<16>) -> !fhe.ct<16> {
  // CHECK: %[[N:.*]] = ckks.neg %[[X]]
  %n = fhe.neg %x : !fhe.ct<16>
  // CHECK-NEXT: %[[R:.*]] = ckks.rotate %[[N]] by 5
  %r = fhe.rotate %n by 5 : !fhe.ct<16>
  // CHECK-NEXT: %[[C:.*]] = ckks.conjugate %[[R]]
  %c = fhe.conjugate %r : !fhe.ct<16>
  // CHECK-NEXT: return %[[C]]
  return %c : !fhe.ct<16>
}
