// The value fhe-to-ckks fits into q_0: the largest ciphertext, or a
// plaintext added to one (encoded down to level 0 at the ciphertext's
// scale); a plaintext factor is encoded at a level >= 1 and does not count.
// RUN: ember-opt --split-input-file --fhe-annotate-ranges %s | FileCheck %s

// x - 500 for x around 250: the constant is the largest value.
// CHECK: module attributes {fhe.largest = "'fhe.constant'", fhe.largest_bound = 5.000000e+02 : f64}
func.func @added(%x: !fhe.ct<4> {fhe.range = [249.0, 251.0]}) -> !fhe.ct<4> {
  %c = fhe.constant dense<500.0> : tensor<4xf64> -> !fhe.pt<4>
  %a = fhe.sub %x, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return %a : !fhe.ct<4>
}

// -----

// CHECK: module attributes {fhe.largest = "'fhe.mul'", fhe.largest_bound = 1.000000e+00 : f64}
func.func @factor(%x: !fhe.ct<4> {fhe.range = [-1.0e-3, 1.0e-3]}) -> !fhe.ct<4> {
  %c = fhe.constant dense<1000.0> : tensor<4xf64> -> !fhe.pt<4>
  %a = fhe.mul %x, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return %a : !fhe.ct<4>
}

// -----

// CHECK: module attributes {fhe.largest = "argument 1", fhe.largest_bound = 7.000000e+00 : f64}
func.func @argument(%x: !fhe.ct<4>, %y: !fhe.ct<4> {fhe.range = [-7.0, 0.0]}) -> !fhe.ct<4> {
  %c = fhe.constant dense<1.0e-2> : tensor<4xf64> -> !fhe.pt<4>
  %a = fhe.mul %y, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  %b = fhe.add %a, %x : (!fhe.ct<4>, !fhe.ct<4>) -> !fhe.ct<4>
  return %b : !fhe.ct<4>
}
