// RUN: ember-opt --rns-fuse-elementwise=permuted-loads=false %s | FileCheck %s
// Cases the pass must leave alone (automorphisms as permuted loads off:
// permuted_loads.mlir has them).

!q = !rns.poly<ntt, q[0:5]>
!q4 = !rns.poly<ntt, q[0:4]>

// A single elementwise op is already one kernel.
// CHECK-LABEL: func.func @single
// CHECK-NOT: rns.fused
// CHECK: rns.add
func.func @single(%x: !q) -> !q {
  %0 = rns.add %x, %x : !q
  return %0 : !q
}

// Automorphisms and key-switch ops are not elementwise: nothing to fuse
// between the two adds.
// CHECK-LABEL: func.func @broken_by_automorphism
// CHECK-NOT: rns.fused
func.func @broken_by_automorphism(%x: !q) -> !q {
  %0 = rns.add %x, %x : !q
  %1 = rns.automorphism %0, 5 : !q
  %2 = rns.add %1, %x : !q
  return %2 : !q
}

// Different bases never share a kernel.
// CHECK-LABEL: func.func @different_bases
// CHECK-NOT: rns.fused
func.func @different_bases(%x: !q) -> !q4 {
  %0 = rns.add %x, %x : !q
  %1 = rns.drop_limbs %0 : !q -> !q4
  %2 = rns.neg %1 : !q4
  return %2 : !q4
}

// A value used by a non-fusable op between the two elementwise ops: the
// fused op could not sit at the second op's place.
// CHECK-LABEL: func.func @use_in_between
// CHECK-NOT: rns.fused
func.func @use_in_between(%x: !q) -> !q {
  %0 = rns.add %x, %x : !q
  %1 = rns.automorphism %0, 5 : !q
  %2 = rns.mul %0, %1 : !q
  return %2 : !q
}

// The off switch.
// RUN: ember-opt --rns-fuse-elementwise=enabled=false %s | FileCheck %s --check-prefix=OFF
// OFF-LABEL: func.func @chain
// OFF-NOT: rns.fused
// CHECK-LABEL: func.func @chain
// CHECK: rns.fused
func.func @chain(%x: !q) -> !q {
  %0 = rns.add %x, %x : !q
  %1 = rns.neg %0 : !q
  return %1 : !q
}
