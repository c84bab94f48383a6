// The ckks half of --ember-pipeline=fhe-to-rns, seen after its last ckks
// pass: canonicalized rotations, lazy relinearization, lazy rescaling and
// double hoisting; every optimisation has an off switch.
// RUN: ember-opt --ember-pipeline=fhe-to-rns --mlir-print-ir-after=ckks-hoist-rotations %s -o /dev/null 2>&1 | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{hoisting=0 lazy-relin=0 rescale=eager}" --mlir-print-ir-after=ckks-hoist-rotations %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: IR Dump After HoistRotations
// CHECK: func.func @rotate_and_sum
// CHECK-NEXT: %[[AB:.*]] = ckks.mul
// CHECK-NEXT: %[[CD:.*]] = ckks.mul
// CHECK-NEXT: %[[S:.*]] = ckks.add %[[AB]], %[[CD]]
// CHECK-NEXT: %[[L:.*]] = ckks.relinearize %[[S]]
// CHECK-NEXT: %[[H:.*]] = ckks.hoisted_rotate_sum %[[L]] by [1, 2, 3, 0]
// CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[H]]
// CHECK-NEXT: return %[[R]]

// OFF-LABEL: IR Dump After HoistRotations
// OFF: func.func @rotate_and_sum
// OFF-NEXT: ckks.mul
// OFF-NEXT: ckks.relinearize
// OFF-NEXT: ckks.rescale
// OFF-NEXT: ckks.mul
// OFF-NEXT: ckks.relinearize
// OFF-NEXT: ckks.rescale
// OFF-NEXT: ckks.add
// OFF-NEXT: ckks.rotate {{.*}} by 1
// OFF-NEXT: ckks.rotate {{.*}} by 2
// OFF-NEXT: ckks.rotate {{.*}} by 3
// OFF-COUNT-3: ckks.add
// OFF-NEXT: return
func.func @rotate_and_sum(%a: !fhe.ct<8>, %b: !fhe.ct<8>, %c: !fhe.ct<8>, %d: !fhe.ct<8>) -> !fhe.ct<8> {
  %ab = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %cd = fhe.mul %c, %d : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %ab, %cd : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  // rotate by 1 written as two rotations: canonicalization composes them.
  %r0 = fhe.rotate %s by 5 : !fhe.ct<8>
  %r1 = fhe.rotate %r0 by 4 : !fhe.ct<8>
  %r2 = fhe.rotate %s by 2 : !fhe.ct<8>
  %r3 = fhe.rotate %s by 3 : !fhe.ct<8>
  %t1 = fhe.add %r1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t2 = fhe.add %t1, %r3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t3 = fhe.add %t2, %s : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t3 : !fhe.ct<8>
}
