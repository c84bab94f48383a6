// scheme=bgv expands fhe.linear_transform (ember.matvec) by baby-step
// giant-step before fhe-to-bgv: integer diagonals become encoded
// plaintexts multiplied in, the rotations BGV rotations; one level (one
// modulus switch after the products).
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bgv}" --mlir-print-ir-after=fhe-to-bgv %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: bgv.rotate
// CHECK: bgv.encode dense<{{.*}}> : tensor<4xi64> -> <4, level = 1, factor = 1>
// CHECK: bgv.mul_plain
// CHECK: bgv.mod_switch {{.*}} -> <4, level = 0, factor = 1>
// CHECK-NOT: fhe.
func.func @f(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  %y = fhe.linear_transform %x by [0, 1, 2, 3] diagonals dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 2.0], [5.0, 5.0, 5.0, 5.0], [0.0, 1.0, 0.0, 1.0]]> : tensor<4x4xf64> : !fhe.ct<4>
  return %y : !fhe.ct<4>
}
