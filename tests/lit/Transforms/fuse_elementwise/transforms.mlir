// RUN: ember-opt --rns-fuse-elementwise %s | FileCheck %s
// Elementwise prologues and epilogues join one NTT or INTT kernel, as in a
// ModDown's tail: NTT of the converted limbs, subtract, scale.

!c = !rns.poly<coeff, q[0:4]>
!n = !rns.poly<ntt, q[0:4]>

// CHECK-LABEL: func.func @ntt_epilogue
// CHECK: %[[F:.*]] = rns.fused(%arg0, %arg1) : (!rns.poly<coeff, q[0:4]>, !rns.poly<ntt, q[0:4]>) -> !rns.poly<ntt, q[0:4]>
// CHECK: rns.ntt
// CHECK-NEXT: rns.sub
// CHECK-NEXT: rns.mul_const
// CHECK-NEXT: rns.yield
// CHECK: return %[[F]]
func.func @ntt_epilogue(%conv: !c, %x: !n) -> !n {
  %0 = rns.ntt %conv : !c -> !n
  %1 = rns.sub %x, %0 : !n
  %2 = rns.mul_const %1, 7 : !n
  return %2 : !n
}

// CHECK-LABEL: func.func @intt_prologue
// CHECK: rns.fused(%arg0, %arg1) : (!rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>) -> !rns.poly<coeff, q[0:4]>
// CHECK: rns.mul
// CHECK-NEXT: rns.intt
// CHECK-NEXT: rns.yield
func.func @intt_prologue(%x: !n, %y: !n) -> !c {
  %0 = rns.mul %x, %y : !n
  %1 = rns.intt %0 : !n -> !c
  return %1 : !c
}

// Two transforms never share a kernel; fuse-transforms=false keeps them out.
// CHECK-LABEL: func.func @two_transforms
// CHECK: rns.fused
// CHECK: rns.intt
// CHECK-NOT: rns.ntt
// CHECK: rns.yield
// CHECK: rns.ntt
// RUN: ember-opt --rns-fuse-elementwise=fuse-transforms=false %s | FileCheck %s --check-prefix=NOTR
// NOTR-LABEL: func.func @two_transforms
// NOTR-NOT: rns.fused
// NOTR: return
func.func @two_transforms(%x: !n) -> !n {
  %0 = rns.neg %x : !n
  %1 = rns.intt %0 : !n -> !c
  %2 = rns.ntt %1 : !c -> !n
  return %2 : !n
}
