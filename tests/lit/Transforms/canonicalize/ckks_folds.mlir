// Folding of ckks ops under --canonicalize.
// RUN: ember-opt --canonicalize %s | FileCheck %s

!ct = !ckks.ct<8, level = 1, scale = 2.0>
!pt = !ckks.pt<8, level = 1, scale = 2.0>

// CHECK-LABEL: func.func @rotations
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 1, scale = 2.0>)
// CHECK-NEXT: %[[R:.*]] = ckks.rotate %[[X]] by 1 : !ckks.ct<8, level = 1, scale = 2.0>
// CHECK-NEXT: return %[[X]], %[[R]]
func.func @rotations(%x: !ct) -> (!ct, !ct) {
  %z = ckks.rotate %x by 0 : !ct
  %a = ckks.rotate %x by 7 : !ct
  %b = ckks.rotate %a by 2 : !ct
  return %z, %b : !ct, !ct
}

// CHECK-LABEL: func.func @plain_zero
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 1, scale = 2.0>)
// CHECK-NEXT: %[[W:.*]] = ckks.encode dense<5.000000e-01>
// CHECK-NEXT: %[[A:.*]] = ckks.add_plain %[[X]], %[[W]]
// CHECK-NEXT: return %[[X]], %[[X]], %[[A]]
func.func @plain_zero(%x: !ct) -> (!ct, !ct, !ct) {
  %z = ckks.encode dense<0.0> : tensor<8xf64> -> !pt
  %w = ckks.encode dense<0.5> : tensor<8xf64> -> !pt
  %a = ckks.add_plain %x, %z : !ct, !pt
  %s = ckks.sub_plain %x, %z : !ct, !pt
  %b = ckks.add_plain %x, %w : !ct, !pt
  return %a, %s, %b : !ct, !ct, !ct
}
