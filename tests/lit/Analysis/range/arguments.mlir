// Argument ranges: an argument without fhe.range lies in [-1, 1]; a
// declared one is read as given, [lo, hi] (real) or four bounds (complex);
// plaintext arguments carry one the same way. neg mirrors the interval.
// RUN: ember-opt --fhe-annotate-ranges %s | FileCheck %s

// CHECK-LABEL: func.func @args
func.func @args(%x: !fhe.ct<8>, %y: !fhe.ct<8> {fhe.range = [-3000.0, 1000.0]},
                %z: !fhe.ct<8> {fhe.range = [0.0, 2.0, -1.0, 0.5]},
                %w: !fhe.pt<8> {fhe.range = [-4.0, -2.0]})
    -> (!fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>) {
  // CHECK: fhe.neg %arg0 {fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %a = fhe.neg %x : !fhe.ct<8>
  // CHECK: fhe.neg %arg1 {fhe.bound = 3.000000e+03 : f64, fhe.range = [-1.000000e+03, 3.000000e+03]}
  %b = fhe.neg %y : !fhe.ct<8>
  // |z| <= sqrt(2^2 + 1^2)
  // CHECK: fhe.neg %arg2 {fhe.bound = 2.236{{[0-9]+}} : f64, fhe.range = [-2.000000e+00, -0.000000e+00, -5.000000e-01, 1.000000e+00]}
  %c = fhe.neg %z : !fhe.ct<8>
  // CHECK: fhe.mul %arg0, %arg3 {fhe.bound = 4.000000e+00 : f64, fhe.range = [-4.000000e+00, 4.000000e+00]}
  %d = fhe.mul %x, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %a, %b, %c, %d : !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>, !fhe.ct<8>
}
