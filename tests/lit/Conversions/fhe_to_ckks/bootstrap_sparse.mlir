// RUN: ember-opt --fhe-to-ckks="security=none log-n=13" %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks="security=none log-n=13" %s | FileCheck %s --check-prefix=COUNT
// RUN: ember-opt --fhe-to-ckks="security=none log-n=13 bootstrap-cosine-bits=34" %s | FileCheck %s --check-prefix=COSINE48
// Sparse packing: 1024 slots at N = 2^13 (N/2 = 4096). ModRaise reads the
// raised polynomial at N/2 slots; SubSum (rotations by 1024 and 2048, the
// trace to the subring of 1024 slots) brings it back, read at 2n = 2048
// slots (a free ckks.tile); CoeffToSlot's transforms work on 2048 slots and
// one conjugation (no mul_i: the -i is in the last group's constants)
// leaves both parts' real coefficients side by side, so EvalMod runs once;
// SlotToCoeff ends with a rotation by n = 1024 and an addition, and the
// result is read at 1024 slots.

// CHECK-LABEL: func.func @refresh
// CHECK-SAME: (%{{.*}}: !ckks.ct<1024, level = 1, scale = 1099511627776.0>)
// CHECK: %[[LOW:.*]] = ckks.rescale %{{.*}} -> !ckks.ct<1024, level = 0,
// CHECK: %[[RAISED:.*]] = ckks.mod_raise %[[LOW]] {encapsulate, input_scale = {{.*}}} : !ckks.ct<1024, level = 0, {{.*}}> -> !ckks.ct<4096, level = 17,
// CHECK-NEXT: %[[R1:.*]] = ckks.rotate %[[RAISED]] by 1024 : !ckks.ct<4096, level = 17,
// CHECK-NEXT: %[[S1:.*]] = ckks.add %[[RAISED]], %[[R1]] : !ckks.ct<4096, level = 17,
// CHECK-NEXT: %[[R2:.*]] = ckks.rotate %[[S1]] by 2048 : !ckks.ct<4096, level = 17,
// CHECK-NEXT: %[[S2:.*]] = ckks.add %[[S1]], %[[R2]] : !ckks.ct<4096, level = 17,
// CHECK-NEXT: %[[WIDE:.*]] = ckks.tile %[[S2]] to 2048 : !ckks.ct<4096, level = 17,
// CHECK-NEXT: ckks.rotate %[[WIDE]] by {{[0-9]+}} : !ckks.ct<2048, level = 17,
// CHECK: ckks.mul_plain {{.*}} !ckks.pt<2048, level = 17,
// CHECK: %[[CONJ:.*]] = ckks.conjugate %[[W:.*]] : !ckks.ct<2048,
// CHECK-NEXT: ckks.add %[[W]], %[[CONJ]] : !ckks.ct<2048,
// CHECK-NOT: ckks.mul_i %
// CHECK: ckks.relinearize %{{.*}} : !ckks.ct<2048,
// CHECK-NOT: ckks.mul_i %
// CHECK: %[[ROT:.*]] = ckks.rotate %[[Z:.*]] by 1024 : !ckks.ct<2048, level = 1, scale = 1099511627776.0>
// CHECK-NEXT: %[[JOIN:.*]] = ckks.add %[[Z]], %[[ROT]] : !ckks.ct<2048, level = 1,
// CHECK-NEXT: %[[OUT:.*]] = ckks.tile %[[JOIN]] to 1024 : !ckks.ct<2048, level = 1, scale = 1099511627776.0>
// CHECK-NEXT: return %[[OUT]] : !ckks.ct<1024, level = 1, scale = 1099511627776.0>

// One EvalMod (the full-slot procedure at N/2 = 4096 has two, 34
// relinearizations) and one conjugation: the degree-30 cosine's 12
// products at depth 5, three double angles, the cubic arcsine's two.
// COUNT-LABEL: func.func @refresh
// COUNT: ckks.conjugate
// COUNT-NOT: ckks.conjugate
// COUNT-COUNT-17: ckks.relinearize
// COUNT-NOT: ckks.relinearize
// COUNT-NOT: ckks.conjugate
// bootstrap-cosine-bits=34 keeps the earlier degree-48 cosine at depth 6
// (14 products) and two double angles: one product more, the same levels.
// COSINE48-LABEL: func.func @refresh
// COSINE48: ckks.mod_raise %{{.*}} -> !ckks.ct<4096, level = 17,
// COSINE48-COUNT-18: ckks.relinearize
// COSINE48-NOT: ckks.relinearize
// COSINE48-LABEL: func.func @tiny
// COUNT-LABEL: func.func @tiny
func.func @refresh(%x: !fhe.ct<1024>) -> !fhe.ct<1024> {
  %b = fhe.bootstrap %x : !fhe.ct<1024>
  return %b : !fhe.ct<1024>
}

// Two slots (N/2 = 4096 is 2048 times more): eleven SubSum rotations; the
// one-stage transforms still work on 2n = 4 slots.
// CHECK-LABEL: func.func @tiny
// CHECK: ckks.mod_raise %{{.*}} -> !ckks.ct<4096, level = 17,
// CHECK-COUNT-11: ckks.rotate %{{.*}} : !ckks.ct<4096, level = 17,
// CHECK: ckks.tile %{{.*}} to 4 : !ckks.ct<4096, level = 17,
// CHECK: ckks.rotate %{{.*}} by 2 : !ckks.ct<4,
// CHECK-NEXT: ckks.add
// CHECK-NEXT: ckks.tile %{{.*}} to 2 : !ckks.ct<4,
func.func @tiny(%x: !fhe.ct<2>) -> !fhe.ct<2> {
  %b = fhe.bootstrap %x : !fhe.ct<2>
  return %b : !fhe.ct<2>
}
