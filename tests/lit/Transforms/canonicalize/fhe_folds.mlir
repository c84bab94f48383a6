// Folding of fhe ops under --canonicalize.
// RUN: ember-opt --canonicalize %s | FileCheck %s

// Rotation by 0 is the input.
// CHECK-LABEL: func.func @rotate_zero
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-NEXT: return %[[X]]
func.func @rotate_zero(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %r = fhe.rotate %x by 0 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}

// Rotations compose, offsets mod slots: 5 + 6 = 11 = 3 (mod 8).
// CHECK-LABEL: func.func @rotate_rotate
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-NEXT: %[[R:.*]] = fhe.rotate %[[X]] by 3 : !fhe.ct<8>
// CHECK-NEXT: return %[[R]]
func.func @rotate_rotate(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.rotate %x by 5 : !fhe.ct<8>
  %b = fhe.rotate %a by 6 : !fhe.ct<8>
  return %b : !fhe.ct<8>
}

// ...and cancel: 3 + (-3) = 0.
// CHECK-LABEL: func.func @rotate_back
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK-NEXT: return %[[X]]
func.func @rotate_back(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.rotate %x by 3 : !fhe.ct<8>
  %b = fhe.rotate %a by -3 : !fhe.ct<8>
  return %b : !fhe.ct<8>
}

// x + 0, 0 + x and x - 0 are x.
// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<4>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]]
func.func @add_zero(%x: !fhe.ct<4>) -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  %z = fhe.constant dense<0.0> : tensor<4xf64> -> !fhe.pt<4>
  %a = fhe.add %x, %z : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  %b = fhe.add %z, %x : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %c = fhe.sub %x, %z : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  return %a, %b, %c : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}

// Negative cases: a non-zero constant, 0 - x, a non-zero rotation stay.
// CHECK-LABEL: func.func @no_fold
// CHECK: %[[C:.*]] = fhe.constant dense<[0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00]>
// CHECK: %[[Z:.*]] = fhe.constant dense<0.000000e+00>
// CHECK: fhe.add %{{.*}}, %[[C]]
// CHECK: fhe.sub %[[Z]], %{{.*}}
// CHECK: fhe.rotate %{{.*}} by 1
func.func @no_fold(%x: !fhe.ct<4>) -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  %c = fhe.constant dense<[0.0, 1.0, 0.0, 0.0]> : tensor<4xf64> -> !fhe.pt<4>
  %z = fhe.constant dense<0.0> : tensor<4xf64> -> !fhe.pt<4>
  %a = fhe.add %x, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  %b = fhe.sub %z, %x : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  %r = fhe.rotate %x by 1 : !fhe.ct<4>
  return %a, %b, %r : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}

// A tile to its own slot count and an untile of a tile are their input; an
// untile of anything else stays (its input's repetition is a promise).
// CHECK-LABEL: func.func @tile_untile
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<4>, %[[Y:.*]]: !fhe.ct<16>)
// CHECK-NEXT: %[[U:.*]] = fhe.untile %[[Y]] : !fhe.ct<16> -> !fhe.ct<4>
// CHECK-NEXT: return %[[X]], %[[X]], %[[U]]
func.func @tile_untile(%x: !fhe.ct<4>, %y: !fhe.ct<16>) -> (!fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>) {
  %t = fhe.tile %x : !fhe.ct<4> -> !fhe.ct<4>
  %w = fhe.tile %x : !fhe.ct<4> -> !fhe.ct<16>
  %u = fhe.untile %w : !fhe.ct<16> -> !fhe.ct<4>
  %v = fhe.untile %y : !fhe.ct<16> -> !fhe.ct<4>
  return %t, %u, %v : !fhe.ct<4>, !fhe.ct<4>, !fhe.ct<4>
}
