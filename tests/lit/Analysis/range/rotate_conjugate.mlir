// rotate moves each slot's interval (slot i takes slot i + k), so that
// y + y.rotate(1) for y = x * [1, 0, 0, 0] stays in [-1, 1] (one interval
// for the whole vector would give [-2, 2]); a vector whose slots all agree
// rotates into itself. conjugate negates the imaginary part and leaves a
// real range alone.
// RUN: ember-opt --fhe-annotate-ranges %s | FileCheck %s

// CHECK-LABEL: func.func @rotate
func.func @rotate(%x: !fhe.ct<4>) -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  %e0 = fhe.constant dense<[1.0, 0.0, 0.0, 0.0]> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: fhe.mul {{.*}} {fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %y = fhe.mul %x, %e0 : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // CHECK: fhe.rotate {{.*}} by 1 {fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %r = fhe.rotate %y by 1 : !fhe.ct<4>
  // CHECK: fhe.add {{.*}} {fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %s = fhe.add %y, %r : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // Rotated by 0 mod 4 (right by 4): slot 0 meets slot 0, [-2, 2].
  // CHECK: fhe.rotate {{.*}} by -3 {fhe.bound = 1.000000e+00
  %r3 = fhe.rotate %y by -3 : !fhe.ct<4>
  // CHECK: fhe.add {{.*}} {fhe.bound = 2.000000e+00 : f64, fhe.range = [-2.000000e+00, 2.000000e+00]}
  %t = fhe.add %r, %r3 : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: fhe.rotate %arg0 by 2 {fhe.bound = 1.000000e+00 : f64, fhe.range = [-1.000000e+00, 1.000000e+00]}
  %rx = fhe.rotate %x by 2 : !fhe.ct<4>
  return %s, %t, %rx : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}

// CHECK-LABEL: func.func @conjugate
func.func @conjugate(%x: !fhe.ct<4> {fhe.range = [-1.0, 2.0]},
                     %z: !fhe.ct<4> {fhe.range = [0.0, 1.0, -3.0, 0.5]})
    -> (!fhe.ct<4>, !fhe.ct<4>) {
  // CHECK: fhe.conjugate %arg0 {fhe.bound = 2.000000e+00 : f64, fhe.range = [-1.000000e+00, 2.000000e+00]}
  %a = fhe.conjugate %x : !fhe.ct<4>
  // CHECK: fhe.conjugate %arg1 {fhe.bound = 3.162{{[0-9]+}} : f64, fhe.range = [0.000000e+00, 1.000000e+00, -5.000000e-01, 3.000000e+00]}
  %b = fhe.conjugate %z : !fhe.ct<4>
  return %a, %b : !fhe.ct<4>, !fhe.ct<4>
}

// tile repeats the vector, and its ranges: slot i of the result is slot
// i mod 2 of the input, so multiplying the tiled [x, 0] pattern by a
// 4-slot vector keeps slot-wise bounds.
// CHECK-LABEL: func.func @tile
func.func @tile(%x: !fhe.ct<2> {fhe.range = [-3.0, 3.0]}, %y: !fhe.ct<4>) -> !fhe.ct<4> {
  %e0 = fhe.constant dense<[1.0, 0.0]> : tensor<2xf64> -> !fhe.pt<2>
  %m = fhe.mul %x, %e0 : (!fhe.ct<2>, !fhe.pt<2>) -> !fhe.ct<2>
  // CHECK: fhe.tile {{.*}} {fhe.bound = 3.000000e+00 : f64, fhe.range = [-3.000000e+00, 3.000000e+00]}
  %t = fhe.tile %m : !fhe.ct<2> -> !fhe.ct<4>
  // CHECK: fhe.add {{.*}} {fhe.bound = 4.000000e+00 : f64, fhe.range = [-4.000000e+00, 4.000000e+00]}
  %s = fhe.add %t, %y : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  return %s : !fhe.ct<4>
}
