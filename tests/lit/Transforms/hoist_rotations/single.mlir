// A lone rotation stays a ckks.rotate by default; with single=true (what the
// pipeline sets when fusion is on) it becomes a one-offset hoisted_rotate,
// so that ckks-to-rns raises c1 first and the automorphism lands on the
// digits, where rns-fuse-elementwise folds it into the inner product
// (tests/lit/Conversions/rns_to_kernel/relin_rotate.mlir checks the result).
// RUN: ember-opt --ckks-hoist-rotations %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ember-opt --ckks-hoist-rotations=single=true %s | FileCheck %s

!ct = !ckks.ct<8, level = 1, scale = 2.0>

// DEFAULT-LABEL: func.func @one_rotation
// DEFAULT-NEXT: ckks.rotate %arg0 by 3
// DEFAULT-NOT: ckks.hoisted_rotate
// CHECK-LABEL: func.func @one_rotation
// CHECK-NEXT: %[[H:.*]] = ckks.hoisted_rotate %arg0 by [3] : !ckks.ct<8, level = 1, scale = 2.0> -> !ckks.ct<8, level = 1, scale = 2.0>
// CHECK-NEXT: return %[[H]]
// CHECK-NOT: ckks.rotate
func.func @one_rotation(%x: !ct) -> !ct {
  %r = ckks.rotate %x by 3 : !ct
  return %r : !ct
}
