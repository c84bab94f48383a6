// Encoded constants are re-encoded where they are used: at the
// ciphertext's exact level and scale, for add_plain and for mul_plain (the
// product then has the scale s^2 of any product at that level, not
// s * 2^40). One constant with two uses becomes two encodes.
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s

!ct2 = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!sq2 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!pt2 = !ckks.pt<8, level = 2, scale = 1099511627776.0>
!psq2 = !ckks.pt<8, level = 2, scale = 1.2089258196146292e+24>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @reencode
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>)
  // CHECK-NEXT: %[[W1:.*]] = ckks.encode dense<3.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 2, scale = 1099511627776.0>
  // CHECK-NEXT: %[[M:.*]] = ckks.mul_plain %[[X]], %[[W1]]
  // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[M]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[W2:.*]] = ckks.encode dense<3.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[A:.*]] = ckks.add_plain %[[R]], %[[W2]]
  // CHECK-NEXT: return %[[A]] : !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  func.func @reencode(%x: !ct2) -> !sq2 {
    %w = ckks.encode dense<3.0> : tensor<8xf64> -> !pt2
    %m = ckks.mul_plain %x, %w : !ct2, !pt2
    %w2 = ckks.encode dense<3.0> : tensor<8xf64> -> !psq2
    %a = ckks.add_plain %m, %w2 : !sq2, !psq2
    return %a : !sq2
  }

  // The second multiplication's constant is encoded at the rescaled scale
  // 2^80 / q_2, not at 2^40.
  // CHECK-LABEL: func.func @mul_after_rescale
  // CHECK: %[[R:.*]] = ckks.rescale {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: %[[W2:.*]] = ckks.encode dense<3.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 1, scale = 1099512365055.4944>
  // CHECK-NEXT: ckks.mul_plain %[[R]], %[[W2]]
  func.func @mul_after_rescale(%x: !ct2) -> !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36> {
    %w = ckks.encode dense<3.0> : tensor<8xf64> -> !pt2
    %m = ckks.mul_plain %x, %w : !ct2, !pt2
    %m2 = ckks.mul_plain %m, %w : !sq2, !pt2
    return %m2 : !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36>
  }
}
