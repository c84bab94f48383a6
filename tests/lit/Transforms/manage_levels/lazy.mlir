// strategy=lazy: products are summed at scale 2^80 and rescaled once, where
// the value is returned (or multiplied again), not after each multiplication.
// The pass relinearizes each product right away (a rescale needs degree 2);
// ckks-insert-relin, which runs after it, makes relinearization lazy.
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=eager %s | FileCheck %s --check-prefix=EAGER

!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!sq = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!sq3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @sum_of_products
  func.func @sum_of_products(%a: !ct, %b: !ct, %c: !ct, %d: !ct) -> !sq {
    // CHECK: %[[AB:.*]] = ckks.mul
    // CHECK-NEXT: %[[ABL:.*]] = ckks.relinearize %[[AB]]
    // CHECK-NEXT: %[[CD:.*]] = ckks.mul
    // CHECK-NEXT: %[[CDL:.*]] = ckks.relinearize %[[CD]]
    // CHECK-NEXT: %[[S:.*]] = ckks.add %[[ABL]], %[[CDL]] : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
    // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[S]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
    // CHECK-NEXT: return %[[R]]
    // EAGER-LABEL: func.func @sum_of_products
    // EAGER: ckks.mul
    // EAGER-NEXT: ckks.relinearize
    // EAGER-NEXT: ckks.rescale
    // EAGER-NEXT: ckks.mul
    // EAGER-NEXT: ckks.relinearize
    // EAGER-NEXT: ckks.rescale
    // EAGER-NEXT: ckks.add
    // EAGER-NEXT: return
    %ab = ckks.mul %a, %b : !ct, !ct
    %cd = ckks.mul %c, %d : !ct, !ct
    %s = ckks.add %ab, %cd : !sq3, !sq3
    %l = ckks.relinearize %s : !sq3
    return %l : !sq
  }

  // A product used by another multiplication is rescaled just before it;
  // the other operand is mod_dropped to match.
  // CHECK-LABEL: func.func @mul_then_mul
  // CHECK-SAME: (%[[X:.*]]: {{.*}}, %[[Y:.*]]: {{.*}})
  func.func @mul_then_mul(%x: !ct, %y: !ct) -> !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36> {
    // CHECK: %[[M:.*]] = ckks.mul %[[X]], %[[Y]]
    // CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[M]]
    // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[L]]
    // CHECK-NEXT: %[[YD:.*]] = ckks.mod_drop %[[Y]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1099511627776.0>
    // CHECK-NEXT: %[[M2:.*]] = ckks.mul %[[R]], %[[YD]]
    // CHECK-NEXT: %[[L2:.*]] = ckks.relinearize %[[M2]]
    // CHECK-NEXT: %[[R2:.*]] = ckks.rescale %[[L2]] : {{.*}} -> !ckks.ct<8, level = 0, scale = 1099512512510.613>
    // CHECK-NEXT: return %[[R2]]
    %m = ckks.mul %x, %y : !ct, !ct
    %l = ckks.relinearize %m : !sq3
    %m2 = ckks.mul %l, %y : !sq, !ct
    %l2 = ckks.relinearize %m2 : !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36, degree = 3>
    return %l2 : !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36>
  }

  // Below the waterline (here 2^100) nothing is rescaled.
  // RUN: ember-opt --ckks-manage-levels="strategy=lazy waterline=100" %s | FileCheck %s --check-prefix=HIGH
  // HIGH-LABEL: func.func @sum_of_products
  // HIGH-NOT: ckks.rescale
  // HIGH: return
}
