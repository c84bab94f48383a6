// Negative cases: IR without multiplications or mismatches is left as it
// is, and running the pass twice gives what running it once gives.
// RUN: ember-opt --ckks-manage-levels %s | FileCheck %s
// RUN: ember-opt --ckks-manage-levels --ckks-manage-levels %s | FileCheck %s --check-prefix=TWICE

!ct1 = !ckks.ct<8, level = 1, scale = 1099511627776.0>
!ct2 = !ckks.ct<8, level = 2, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  // CHECK-LABEL: func.func @no_mul
  // CHECK-SAME: (%[[X:.*]]: {{.*}}, %[[Y:.*]]: {{.*}})
  // CHECK-NEXT: %[[A:.*]] = ckks.add %[[X]], %[[Y]] : !ckks.ct<8, level = 1, scale = 1099511627776.0>
  // CHECK-NEXT: %[[R:.*]] = ckks.rotate %[[A]] by 1
  // CHECK-NEXT: %[[N:.*]] = ckks.neg %[[R]]
  // CHECK-NEXT: return %[[N]] : !ckks.ct<8, level = 1, scale = 1099511627776.0>
  func.func @no_mul(%x: !ct1, %y: !ct1) -> !ct1 {
    %a = ckks.add %x, %y : !ct1, !ct1
    %r = ckks.rotate %a by 1 : !ct1
    %n = ckks.neg %r : !ct1
    return %n : !ct1
  }

  // TWICE-LABEL: func.func @square
  // TWICE-NEXT: ckks.mul
  // TWICE-NEXT: ckks.relinearize
  // TWICE-NEXT: ckks.rescale
  // TWICE-NEXT: return
  func.func @square(%x: !ct2) -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> {
    %m = ckks.mul %x, %x : !ct2, !ct2
    %l = ckks.relinearize %m : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
    return %l : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24>
  }
}
