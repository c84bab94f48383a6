// add and sub: interval sums and differences, with ciphertexts, constants
// (a vector's min and max) and splats on either side.
// RUN: ember-opt --fhe-annotate-ranges %s | FileCheck %s

// CHECK-LABEL: func.func @add_sub
func.func @add_sub(%x: !fhe.ct<4> {fhe.range = [-2.0, 3.0]},
                   %y: !fhe.ct<4> {fhe.range = [10.0, 20.0]})
    -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  // CHECK: fhe.constant {{.*}} {fhe.bound = 7.000000e+00 : f64, fhe.range = [-7.000000e+00, 5.000000e-01]}
  %c = fhe.constant dense<[0.5, -7.0, 0.0, 0.25]> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: fhe.constant {{.*}} {fhe.bound = 1.500000e+00 : f64, fhe.range = [-1.500000e+00, -1.500000e+00]}
  %h = fhe.constant dense<-1.5> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: fhe.add %arg0, %arg1 {fhe.bound = 2.300000e+01 : f64, fhe.range = [8.000000e+00, 2.300000e+01]}
  %a = fhe.add %x, %y : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: fhe.sub %arg0, %arg1 {fhe.bound = 2.200000e+01 : f64, fhe.range = [-2.200000e+01, -7.000000e+00]}
  %s = fhe.sub %x, %y : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // Slot by slot: [-2, 3] + {0.5, -7, 0, 0.25}.
  // CHECK: fhe.add %arg0, %0 {fhe.bound = 9.000000e+00 : f64, fhe.range = [-9.000000e+00, 3.500000e+00]}
  %p = fhe.add %x, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // CHECK: fhe.sub %1, %arg1 {fhe.bound = 2.150000e+01 : f64, fhe.range = [-2.150000e+01, -1.150000e+01]}
  %q = fhe.sub %h, %y : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // x - x is not 0 to an interval analysis: [-2, 3] - [-2, 3].
  // CHECK: fhe.sub %arg0, %arg0 {fhe.bound = 5.000000e+00 : f64, fhe.range = [-5.000000e+00, 5.000000e+00]}
  %z = fhe.sub %x, %x : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  return %a, %s, %p, %q, %z : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}
