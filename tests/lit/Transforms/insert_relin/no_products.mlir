// Negative case: without multiplications there is nothing to relinearize.
// RUN: ember-opt --ckks-insert-relin %s | FileCheck %s

!ct = !ckks.ct<8, level = 1, scale = 2.0>

// CHECK-LABEL: func.func @linear
// CHECK-NOT: ckks.relinearize
// CHECK: ckks.add
// CHECK-NEXT: ckks.rotate
// CHECK-NEXT: ckks.conjugate
// CHECK-NEXT: return
func.func @linear(%x: !ct, %y: !ct) -> !ct {
  %a = ckks.add %x, %y : !ct, !ct
  %r = ckks.rotate %a by 1 : !ct
  %c = ckks.conjugate %r : !ct
  return %c : !ct
}
