// fhe-expand-linear-transform: y = sum_g rot(sum_b roll(d_(g+b), g) * rot(x, b), g).
// RUN: ember-opt --fhe-expand-linear-transform %s | FileCheck %s
// RUN: ember-opt --fhe-expand-linear-transform=double-hoisting=true %s | FileCheck %s --check-prefix=DH

// Offsets 0..5 with 2 baby steps (forced): babies x, rot(x, 1); giants
// 0, 2, 4; the diagonals of giant g rolled right by g at compile time
// (d_2 = [1..8] rolled by 2 is [7, 8, 1, ..., 6]).
// CHECK-LABEL: func.func @forced
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<8>)
// CHECK: %[[B1:.*]] = fhe.rotate %[[X]] by 1
// CHECK-NOT: fhe.rotate %[[X]]
// CHECK: fhe.mul %[[X]], %{{.*}}
// CHECK: fhe.mul %[[B1]], %{{.*}}
// CHECK: %[[D2:.*]] = fhe.constant dense<[7.000000e+00, 8.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]>
// CHECK-NEXT: fhe.mul %[[X]], %[[D2]]
// CHECK: fhe.mul %[[B1]],
// CHECK: %[[G2:.*]] = fhe.rotate %{{.*}} by 2
// CHECK: fhe.rotate %{{.*}} by 4
// CHECK-NOT: fhe.rotate
// CHECK: return
func.func @forced(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %y = fhe.linear_transform %x by [0, 1, 2, 3, 4, 5] diagonals dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0], [5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0]]> : tensor<6x8xf64> {baby = 2 : i64} : !fhe.ct<8>
  return %y : !fhe.ct<8>
}

// The cost model on 64 consecutive diagonals: 8 baby steps (7 rotations of
// x) and 8 giant steps (7 rotations): 14 rotations, not 63.
// CHECK-LABEL: func.func @dense64
// CHECK-COUNT-14: fhe.rotate
// CHECK-NOT: fhe.rotate
// CHECK: return
// With double hoisting (the inner sums over Q_l u P, one ModDown each) the
// baby steps lose their ModDowns: 16 x 4, 15 baby rotations of x and 3
// giant ones (32 x 2 is predicted 3% faster but needs 32 keys, not 18).
// DH-LABEL: func.func @dense64
// DH-SAME: (%[[X:.*]]: !fhe.ct<64>)
// DH-COUNT-15: fhe.rotate %[[X]] by
// DH-NOT: fhe.rotate %[[X]]
// DH: fhe.rotate %{{.*}} by 16
// DH: fhe.rotate %{{.*}} by 32
// DH: fhe.rotate %{{.*}} by 48
// DH-NOT: fhe.rotate
// DH: return
func.func @dense64(%x: !fhe.ct<64>) -> !fhe.ct<64> {
  %y = fhe.linear_transform %x by [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] diagonals dense<0.5> : tensor<64x64xf64> : !fhe.ct<64>
  return %y : !fhe.ct<64>
}

// A few scattered diagonals: all baby steps (rotations of x, hoisted later).
// CHECK-LABEL: func.func @sparse
// CHECK-SAME: (%[[X:.*]]: !fhe.ct<16>)
// CHECK: fhe.rotate %[[X]] by 1
// CHECK: fhe.rotate %[[X]] by 9
// CHECK-NOT: fhe.rotate
// CHECK: return
func.func @sparse(%x: !fhe.ct<16>) -> !fhe.ct<16> {
  %y = fhe.linear_transform %x by [0, 1, 9] diagonals dense<0.25> : tensor<3x16xf64> : !fhe.ct<16>
  return %y : !fhe.ct<16>
}
