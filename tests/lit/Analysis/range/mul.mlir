// mul: interval products of ciphertexts and of a ciphertext and a constant
// (each slot by its own value), x * x as a square (never negative), and
// the complex product (a + bi)(c + di) = (ac - bd) + (ad + bc)i.
// RUN: ember-opt --fhe-annotate-ranges %s | FileCheck %s

// CHECK-LABEL: func.func @mul
func.func @mul(%x: !fhe.ct<4> {fhe.range = [-3000.0, 3000.0]},
               %y: !fhe.ct<4> {fhe.range = [-1.0, 2.0]},
               %u: !fhe.ct<4> {fhe.range = [2.0, 3.0]},
               %z: !fhe.ct<4> {fhe.range = [1.0, 2.0, 0.0, 1.0]},
               %i: !fhe.ct<4> {fhe.range = [0.0, 0.0, 1.0, 1.0]})
    -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  // The issue's case.
  // CHECK: fhe.mul %arg0, %arg0 {fhe.bound = 9.000000e+06 : f64, fhe.range = [0.000000e+00, 9.000000e+06]}
  %xx = fhe.mul %x, %x : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: fhe.mul %arg0, %arg1 {fhe.bound = 6.000000e+03 : f64, fhe.range = [-6.000000e+03, 6.000000e+03]}
  %xy = fhe.mul %x, %y : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // A square of an interval away from 0: [4, 9].
  // CHECK: fhe.mul %arg2, %arg2 {fhe.bound = 9.000000e+00 : f64, fhe.range = [4.000000e+00, 9.000000e+00]}
  %uu = fhe.mul %u, %u : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // Slot i of y times c[i]: [-1, 2] * {-4, 0.5, 0, 1}.
  // CHECK: %[[C:.*]] = fhe.constant {{.*}} {fhe.bound = 4.000000e+00 : f64, fhe.range = [-4.000000e+00, 1.000000e+00]}
  %c = fhe.constant dense<[-4.0, 0.5, 0.0, 1.0]> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: fhe.mul %arg1, %[[C]] {fhe.bound = 8.000000e+00 : f64, fhe.range = [-8.000000e+00, 4.000000e+00]}
  %yc = fhe.mul %y, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // Complex: [1, 2] + [0, 1]i times exactly i: [-1, 0] + [1, 2]i.
  // CHECK: fhe.mul %arg3, %arg4 {fhe.bound = 2.236{{[0-9]+}} : f64, fhe.range = [-1.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00]}
  %zi = fhe.mul %z, %i : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  return %xx, %xy, %uu, %yc, %zi : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}
