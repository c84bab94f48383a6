// A degree-3 value is relinearized right before the first use that needs
// degree 2 (a multiplication, a rotation), not before additions or
// plaintext ops; later uses share that relinearization. The input has
// no relinearizations at all; degree-3 values are legal there except as
// operands of those uses, so the input returns without any.
// RUN: ember-opt --ckks-insert-relin %s | FileCheck %s

!ct = !ckks.ct<8, level = 1, scale = 2.0>
!ct3 = !ckks.ct<8, level = 1, scale = 2.0, degree = 3>
!pt = !ckks.pt<8, level = 1, scale = 2.0>

// CHECK-LABEL: func.func @before_mul_and_rotate
// CHECK-SAME: (%[[X:.*]]: {{.*}}, %[[P:.*]]: {{.*}})
// CHECK-NEXT: %[[M:.*]] = ckks.mul %[[X]], %[[X]]
// CHECK-NEXT: %[[MP:.*]] = ckks.mul_plain %[[M]], %[[P]] : !ckks.ct<8, level = 1, scale = 4.0, degree = 3>
// CHECK-NEXT: %[[N:.*]] = ckks.neg %[[MP]] : !ckks.ct<8, level = 1, scale = 8.0, degree = 3>
// CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[N]]
// CHECK-NEXT: %[[R:.*]] = ckks.rotate %[[L]] by 2 : !ckks.ct<8, level = 1, scale = 8.0>
// CHECK-NEXT: %[[M2:.*]] = ckks.mul %[[L]], %[[R]]
// CHECK-NEXT: %[[L2:.*]] = ckks.relinearize %[[M2]]
// CHECK-NEXT: return %[[L2]] : !ckks.ct<8, level = 1, scale = 64.0>
func.func @before_mul_and_rotate(%x: !ct, %p: !pt) -> !ckks.ct<8, level = 1, scale = 64.0, degree = 3> {
  %m = ckks.mul %x, %x : !ct, !ct
  %mp = ckks.mul_plain %m, %p : !ckks.ct<8, level = 1, scale = 4.0, degree = 3>, !pt
  %n = ckks.neg %mp : !ckks.ct<8, level = 1, scale = 8.0, degree = 3>
  %l = ckks.relinearize %n : !ckks.ct<8, level = 1, scale = 8.0, degree = 3>
  %r = ckks.rotate %l by 2 : !ckks.ct<8, level = 1, scale = 8.0>
  %m2 = ckks.mul %l, %r : !ckks.ct<8, level = 1, scale = 8.0>, !ckks.ct<8, level = 1, scale = 8.0>
  return %m2 : !ckks.ct<8, level = 1, scale = 64.0, degree = 3>
}

// A rescale needs degree 2 (rescaling c2 would round it, and its error
// decrypts multiplied by s^2): the relinearization stays before the
// rescale, but moves past the mod_drop, to the smaller level.
// CHECK-LABEL: func.func @before_rescale
// CHECK-NEXT: %[[M:.*]] = ckks.mul
// CHECK-NEXT: %[[D:.*]] = ckks.mod_drop %[[M]] : {{.*}} -> !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24, degree = 3>
// CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[D]] : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24, degree = 3>
// CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[L]] : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 0, scale = 1099511775231.0198>
// CHECK-NEXT: return %[[R]]
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @before_rescale(%x: !ckks.ct<8, level = 2, scale = 1099511627776.0>) -> !ckks.ct<8, level = 0, scale = 1099511775231.0198> {
    %m = ckks.mul %x, %x : !ckks.ct<8, level = 2, scale = 1099511627776.0>, !ckks.ct<8, level = 2, scale = 1099511627776.0>
    %l = ckks.relinearize %m : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
    %d = ckks.mod_drop %l : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24>
    %r = ckks.rescale %d : !ckks.ct<8, level = 1, scale = 1.2089258196146292e+24> -> !ckks.ct<8, level = 0, scale = 1099511775231.0198>
    return %r : !ckks.ct<8, level = 0, scale = 1099511775231.0198>
  }
}
