// RUN: ember-opt --fhe-to-ckks="security=none log-n=13" %s | FileCheck %s
// fhe.bootstrap with the chosen parameters: a sparse secret (h = 192) and a
// 2^50 scale; ModRaise reads the level-0 ciphertext (brought to the chain's
// S_0) at the top level, CoeffToSlot's three transforms (rotations and
// plaintext products), one conjugation and i splitting the parts, EvalMod's
// products, SlotToCoeff; the program multiplies again afterwards.

// CHECK: ckks.params = #ckks.params<logN = 13, Q = [{{.*}}], P = [{{.*}}], logScale = 50, dnum = {{[0-9]+}}, security = 0, h = 192>
// CHECK-LABEL: func.func @refresh
// CHECK: %[[LOW:.*]] = ckks.mod_drop %{{.*}} -> !ckks.ct<4096, level = 0,
// CHECK: %[[RAISED:.*]] = ckks.mod_raise %[[LOW]] {input_scale = {{.*}}} : !ckks.ct<4096, level = 0, {{.*}}> -> !ckks.ct<4096, level = [[TOP:[0-9]+]], scale = 1125899906842624.0>
// CHECK: ckks.rotate %[[RAISED]]
// CHECK: ckks.mul_plain
// CHECK: ckks.conjugate
// CHECK: ckks.mul_i
// CHECK: ckks.relinearize
// CHECK: ckks.mul_i
// CHECK: ckks.rotate
// CHECK: %[[OUT:.*]] = ckks.mul %{{.*}}, %{{.*}} : !ckks.ct<4096, level = 1,
// CHECK-NOT: ckks.mod_raise
// CHECK: return
func.func @refresh(%x: !fhe.ct<4096>) -> !fhe.ct<4096> {
  %y = fhe.mul %x, %x : (!fhe.ct<4096>, !fhe.ct<4096>) -> !fhe.ct<4096>
  %b = fhe.bootstrap %y : !fhe.ct<4096>
  %z = fhe.mul %b, %b : (!fhe.ct<4096>, !fhe.ct<4096>) -> !fhe.ct<4096>
  return %z : !fhe.ct<4096>
}
