// rescale-outputs=false (lazy strategy): a returned value keeps its scale,
// here a lone product's 2^80 at level 2 (Q_2 / 2^80 is the room a rescaled
// output would have had); a value multiplied again is still rescaled first.
// The default rescales the returned product once.
// RUN: ember-opt --ckks-manage-levels="strategy=lazy rescale-outputs=false" %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels=strategy=lazy %s | FileCheck %s --check-prefix=RESCALED

!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!sq = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
!sq3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
!cu = !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36>
!cu3 = !ckks.ct<8, level = 2, scale = 1.3292279957849159e+36, degree = 3>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @lone_product
  // CHECK-SAME: -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
  // CHECK: %[[P:.*]] = ckks.mul
  // CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[P]]
  // CHECK-NEXT: return %[[L]]
  // RESCALED-LABEL: func.func @lone_product
  // RESCALED-SAME: -> !ckks.ct<8, level = 1, scale = 1099512365055.4944>
  // RESCALED: ckks.relinearize
  // RESCALED-NEXT: ckks.rescale
  // RESCALED-NEXT: return
  func.func @lone_product(%a: !ct, %b: !ct) -> !sq {
    %p = ckks.mul %a, %b : !ct, !ct
    %l = ckks.relinearize %p : !sq3
    return %l : !sq
  }

  // The square is rescaled before it is multiplied again; only the last
  // product is returned unrescaled, at level 1 and scale ~2^80.
  // CHECK-LABEL: func.func @cube
  // CHECK: ckks.mul
  // CHECK-NEXT: ckks.relinearize
  // CHECK-NEXT: ckks.rescale
  // CHECK: ckks.mul
  // CHECK-NEXT: %[[L:.*]] = ckks.relinearize
  // CHECK-NOT: ckks.rescale
  // CHECK: return %[[L]] : !ckks.ct<8, level = 1, scale = 1.20{{[0-9]+}}e+24>
  func.func @cube(%a: !ct) -> !cu {
    %s = ckks.mul %a, %a : !ct, !ct
    %sl = ckks.relinearize %s : !sq3
    %c = ckks.mul %sl, %a : !sq, !ct
    %cl = ckks.relinearize %c : !cu3
    return %cl : !cu
  }
}
