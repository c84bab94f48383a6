// A chain of 5 elementwise ops is 5 kernels, one fusion region after
// rns-fuse-elementwise, and moves 15 limbs (2 inputs, 1 result) instead of 65
// (13 polynomial reads and writes of 5 limbs; N = 2^10 given by option).
// RUN: ember-opt --ember-cost-report=log-n=10 %s -o /dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: ember-opt --rns-fuse-elementwise --ember-cost-report=log-n=10 %s -o /dev/null | FileCheck %s --check-prefix=FUSED

// PLAIN-LABEL: ember-cost-report @chain5 (N = 2^10, one limb = N x 8 B = 8192 B
// PLAIN: elementwise kernels: 5
// PLAIN-NEXT: fusion regions: 0
// PLAIN-NEXT: bytes moved: 532480

// FUSED-LABEL: ember-cost-report @chain5
// FUSED: elementwise kernels: 1
// FUSED-NEXT: fusion regions: 1
// FUSED-NEXT: bytes moved: 122880

!q = !rns.poly<ntt, q[0:5]>
func.func @chain5(%x: !q, %y: !q) -> !q {
  %0 = rns.add %x, %y : !q
  %1 = rns.mul %0, %y : !q
  %2 = rns.sub %1, %x : !q
  %3 = rns.neg %2 : !q
  %4 = rns.mul_const %3, 3 : !q
  return %4 : !q
}
