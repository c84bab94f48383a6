// Round trip: parse, print, parse again, print; both prints must agree.
// RUN: ember-opt %s | ember-opt | FileCheck %s
// RUN: ember-opt %s --mlir-print-op-generic | ember-opt | FileCheck %s

// CHECK-LABEL: func.func @all_ops
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<4>, %[[Y:.*]]: !fhe.ct<4>, %[[P:.*]]: !fhe.pt<4>) -> !fhe.ct<4>
func.func @all_ops(%x: !fhe.ct<4>, %y: !fhe.ct<4>, %p: !fhe.pt<4>) -> !fhe.ct<4> {
  // CHECK: %[[W:.*]] = fhe.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf64> -> !fhe.pt<4>
  %w = fhe.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: %[[H:.*]] = fhe.constant dense<5.000000e-01> : tensor<4xf64> -> !fhe.pt<4>
  %h = fhe.constant dense<0.5> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: %[[A:.*]] = fhe.add %[[X]], %[[Y]] : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %a = fhe.add %x, %y : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: %[[B:.*]] = fhe.sub %[[A]], %[[W]] : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  %b = fhe.sub %a, %w : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // CHECK: %[[C:.*]] = fhe.mul %[[P]], %[[B]] : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %c = fhe.mul %p, %b : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: %[[D:.*]] = fhe.mul %[[C]], %[[C]] : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %d = fhe.mul %c, %c : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: %[[E:.*]] = fhe.neg %[[D]] : !fhe.ct<4>
  %e = fhe.neg %d : !fhe.ct<4>
  // CHECK: %[[F:.*]] = fhe.rotate %[[E]] by -1 : !fhe.ct<4>
  %f = fhe.rotate %e by -1 : !fhe.ct<4>
  // CHECK: %[[G:.*]] = fhe.conjugate %[[F]] : !fhe.ct<4>
  %g = fhe.conjugate %f : !fhe.ct<4>
  // CHECK: fhe.bootstrap %[[G]] : !fhe.ct<4>
  %boot = fhe.bootstrap %g : !fhe.ct<4>
  // CHECK: %[[R:.*]] = fhe.add %[[H]], %[[G]] : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %r = fhe.add %h, %g : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: return %[[R]] : !fhe.ct<4>
  return %r : !fhe.ct<4>
}

// Complex constants, plaintext arguments and tile round-trip.
// CHECK-LABEL: func.func @complex_plain_tile
// CHECK-SAME: (%{{.*}}: !fhe.ct<4>, %[[W:.*]]: !fhe.pt<16>)
// CHECK: fhe.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<16xcomplex<f64>> -> !fhe.pt<16>
// CHECK: fhe.tile %{{.*}} : !fhe.ct<4> -> !fhe.ct<16>
// CHECK: fhe.mul %{{.*}}, %[[W]] : (!fhe.ct<16>, !fhe.pt<16>) -> !fhe.ct<16>
func.func @complex_plain_tile(%x: !fhe.ct<4>, %w: !fhe.pt<16>) -> !fhe.ct<16> {
  %c = fhe.constant dense<(1.0, -2.0)> : tensor<16xcomplex<f64>> -> !fhe.pt<16>
  %t = fhe.tile %x : !fhe.ct<4> -> !fhe.ct<16>
  %m = fhe.mul %t, %w : (!fhe.ct<16>, !fhe.pt<16>) -> !fhe.ct<16>
  %a = fhe.add %m, %c : (!fhe.ct<16>, !fhe.pt<16>) -> !fhe.ct<16>
  return %a : !fhe.ct<16>
}

// Bootstrapping's internal ops (fhe-to-ckks makes them): ModRaise read at
// more slots, and a periodic vector read at its period; untile of a tile
// folds away.
// CHECK-LABEL: func.func @raise_and_untile
// CHECK: %[[R:.*]] = fhe.mod_raise %{{.*}} : !fhe.ct<4> -> !fhe.ct<16>
// CHECK: %[[U:.*]] = fhe.untile %[[R]] : !fhe.ct<16> -> !fhe.ct<8>
// CHECK: return %[[U]]
func.func @raise_and_untile(%x: !fhe.ct<4>) -> !fhe.ct<8> {
  %r = fhe.mod_raise %x : !fhe.ct<4> -> !fhe.ct<16>
  %u = fhe.untile %r : !fhe.ct<16> -> !fhe.ct<8>
  return %u : !fhe.ct<8>
}

// CHECK-LABEL: func.func @polynomials
// CHECK: fhe.poly_eval %{{.*}} "chebyshev" [5.000000e-01, 1.000000e+00, -2.500000e-01] on [0.000000e+00, 4.000000e+00] : !fhe.ct<8>
// CHECK: fhe.poly_eval %{{.*}} "power" [0.000000e+00, 1.000000e+00, 5.000000e-01] on [-1.000000e+00, 1.000000e+00] : !fhe.ct<8>
func.func @polynomials(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %c = fhe.poly_eval %x "chebyshev" [0.5, 1.0, -0.25] on [0.0, 4.0] : !fhe.ct<8>
  %p = fhe.poly_eval %c "power" [0.0, 1.0, 0.5] on [-1.0, 1.0] : !fhe.ct<8>
  return %p : !fhe.ct<8>
}

// CHECK-LABEL: func.func @matrix
// CHECK: fhe.linear_transform %{{.*}} by [0, 3] diagonals dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01]]> : tensor<2x4xf64> : !fhe.ct<4>
// CHECK: fhe.linear_transform %{{.*}} by [1] diagonals dense<(0.000000e+00,1.000000e+00)> : tensor<1x4xcomplex<f64>> {baby = 2 : i64} : !fhe.ct<4>
func.func @matrix(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  %y = fhe.linear_transform %x by [0, 3] diagonals dense<[[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<2x4xf64> : !fhe.ct<4>
  %z = fhe.linear_transform %y by [1] diagonals dense<(0.0, 1.0)> : tensor<1x4xcomplex<f64>> {baby = 2 : i64} : !fhe.ct<4>
  return %z : !fhe.ct<4>
}
