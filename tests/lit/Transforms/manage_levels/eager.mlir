// strategy=eager (the default): a rescale right after every multiplication,
// with the exact scale s / q_l; the input IR has none (scales grow to 2^120).
// Every product is relinearized before it is rescaled (a rescale needs
// degree 2).
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=eager %s | FileCheck %s

!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!sq = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!sq3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
!cube = !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36>
!cube3 = !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36, degree = 3>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @chain
  // CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 2, scale = 1099511627776.0>, %[[Y:.*]]: {{.*}}, %[[Z:.*]]: {{.*}})
  // CHECK-SAME: -> !ckks.ct<8, level = 0, scale = 1099512512510.613>
  func.func @chain(%x: !ct, %y: !ct, %z: !ct) -> !cube {
    // CHECK: %[[M1:.*]] = ckks.mul %[[X]], %[[Y]]
    // CHECK-NEXT: %[[L1:.*]] = ckks.relinearize %[[M1]]
    // CHECK-NEXT: %[[R1:.*]] = ckks.rescale %[[L1]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
    %m1 = ckks.mul %x, %y : !ct, !ct
    %l1 = ckks.relinearize %m1 : !sq3
    // The product is at level 1, z at level 2 with the same scale 2^40: z is
    // mod_dropped (multiplication needs equal levels, not equal scales, and
    // this product is not added to anything whose scale it must match; see
    // mul_levels.mlir for one that is).
    // CHECK-NEXT: %[[ZR:.*]] = ckks.mod_drop %[[Z]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    // CHECK-NEXT: %[[M2:.*]] = ckks.mul %[[R1]], %[[ZR]]
    // CHECK-NEXT: %[[L2:.*]] = ckks.relinearize %[[M2]]
    // CHECK-NEXT: %[[R2:.*]] = ckks.rescale %[[L2]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099512512510.613>
    %m2 = ckks.mul %l1, %z : !sq, !ct
    %l2 = ckks.relinearize %m2 : !cube3
    // CHECK-NEXT: return %[[R2]]
    return %l2 : !cube
  }
}
