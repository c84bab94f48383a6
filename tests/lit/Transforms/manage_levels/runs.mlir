// A chain of two runs (ckks::levelScales): a 40-bit run (the program's,
// scale 2^40) under a 60-bit run at 2^60 (bootstrapping's procedure). Within
// a run a plaintext product is encoded at the ciphertext's scale (s^2 / q_l,
// as a ciphertext product); at the lowest level of the 60-bit run, where the
// rescale crosses into the 40-bit run, it is encoded at q_2 2^40 / s so that
// the product lands on exactly 2^40, the scale fresh ciphertexts have at
// level 1. Eager and lazy rescaling agree (the lazy waterline scales with
// the run: 2^90 in the 60-bit run).
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s

!top = !ckks.ct<8, level = 3, scale = 1.152921504606847e+18>
!pt = !ckks.pt<8, level = 3, scale = 1.152921504606847e+18>
!sq = !ckks.ct<8, level = 3, scale = 1.3292279957849159e+36>
!cube = !ckks.ct<8, level = 3, scale = 1.5324955408658889e+54>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1125899906826241, 1099511480321, 1152921504606830593, 1152921504606748673], P = [1152921504606683137], logScale = 40, dnum = 4, security = 0>} {
    // CHECK-LABEL: func.func @cross
    // CHECK-SAME: -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    // CHECK: %[[C:.*]] = ckks.encode {{.*}} -> !ckks.pt<8, level = 3, scale = 1.152921504606847e+18>
    // CHECK-NEXT: %[[A:.*]] = ckks.mul_plain %{{.*}}, %[[C]]
    // CHECK-NEXT: %[[RA:.*]] = ckks.rescale %[[A]] : {{.*}} -> !ckks.ct<8, level = 2, scale = 1.1529215046069453e+18>
    // CHECK-NEXT: %[[D:.*]] = ckks.encode {{.*}} -> !ckks.pt<8, level = 2, scale = 1099511627775.8906>
    // CHECK-NEXT: %[[B:.*]] = ckks.mul_plain %[[RA]], %[[D]]
    // CHECK-NEXT: %[[RB:.*]] = ckks.rescale %[[B]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    // CHECK-NEXT: return %[[RB]]
  func.func @cross(%x: !top) -> !cube {
    %c = ckks.encode dense<0.5> : tensor<8xf64> -> !pt
    %a = ckks.mul_plain %x, %c : !top, !pt
    %b = ckks.mul_plain %a, %c : !sq, !pt
    return %b : !cube
  }
}
