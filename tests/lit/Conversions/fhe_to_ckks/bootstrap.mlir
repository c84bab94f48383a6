// RUN: ember-opt --fhe-to-ckks="security=none log-n=13" %s | FileCheck %s
// RUN: ember-opt --fhe-to-ckks="security=none log-n=13 encapsulate=false" %s | FileCheck %s --check-prefix=SPARSE
// RUN: ember-opt --fhe-to-ckks="security=none log-n=13 bootstrap-stop-after=coeff_to_slot" %s | FileCheck %s --check-prefix=STOP
// A bootstrap stopped after CoeffToSlot (a measurement aid) returns re + im
// from the top of the chain: no EvalMod products, no SlotToCoeff.
// STOP: ckks.mod_raise
// STOP: ckks.conjugate
// STOP-NOT: ckks.relinearize
// STOP: ckks.mul_i
// STOP: %[[SUM:.*]] = ckks.add
// STOP-NOT: ckks.rotate
// STOP: ckks.mul %[[SUM]]
// fhe.bootstrap with the chosen parameters: a dense secret with sparse-secret
// encapsulation around ModRaise (the default; the ephemeral h = 32 secret
// gives K = 13, EvalMod 10 levels, the procedure 16) or a sparse secret
// (h = 192: K = 29, EvalMod 11 levels, 17), and a 2^40 program scale; ModRaise reads the level-0 ciphertext (brought to the chain's
// S_0) at the top level, CoeffToSlot's three transforms (rotations and
// plaintext products), one conjugation and i splitting the parts, EvalMod's
// products, SlotToCoeff; the program multiplies again afterwards.

// CHECK: ckks.params = #ckks.params<logN = 13, Q = [{{.*}}], P = [{{.*}}], logScale = 40, dnum = {{[0-9]+}}, security = 0>
// SPARSE: ckks.params = #ckks.params<logN = 13, Q = [{{.*}}], P = [{{.*}}], logScale = 40, dnum = {{[0-9]+}}, security = 0, h = 192>
// SPARSE: ckks.mod_raise %{{.*}} {input_scale = {{.*}}} : !ckks.ct<4096, level = 0, {{.*}}> -> !ckks.ct<4096, level = 18,
// The input starts at level 1, the top of the program's 40-bit run; the 16
// levels above (60-bit primes at 2^60) are the procedure's.
// CHECK-LABEL: func.func @refresh
// CHECK-SAME: (%{{.*}}: !ckks.ct<4096, level = 1, scale = 1099511627776.0>)
// CHECK: %[[LOW:.*]] = ckks.rescale %{{.*}} -> !ckks.ct<4096, level = 0,
// CHECK: %[[RAISED:.*]] = ckks.mod_raise %[[LOW]] {encapsulate, input_scale = {{.*}}} : !ckks.ct<4096, level = 0, {{.*}}> -> !ckks.ct<4096, level = 17, scale = 1.152921504606847e+18>
// CHECK: ckks.rotate %[[RAISED]]
// CHECK: ckks.mul_plain
// The re/im split: one conjugation, and -i (w - conj w) as a free mul_i.
// CHECK: %[[CONJ:.*]] = ckks.conjugate
// CHECK: %[[DIFF:.*]] = ckks.sub %{{.*}}, %[[CONJ]]
// CHECK-NEXT: ckks.mul_i %[[DIFF]] :
// CHECK: ckks.relinearize
// z = lo + i hi
// CHECK: ckks.mul_i %{{.*}} :
// SlotToCoeff's last stage leaves the 60-bit run: its constants are encoded
// at ~2^40 and its products rescale to exactly 2^40 at level 1.
// CHECK: ckks.mul_plain %{{.*}}, %{{.*}} : !ckks.ct<4096, level = 2, scale = {{.*}}e+18>, !ckks.pt<4096, level = 2, scale = 10995{{[0-9.]+}}>
// CHECK-NEXT: ckks.rescale %{{.*}} -> !ckks.ct<4096, level = 1, scale = 1099511627776.0>
// CHECK: %[[OUT:.*]] = ckks.mul %{{.*}}, %{{.*}} : !ckks.ct<4096, level = 1,
// CHECK-NOT: ckks.mod_raise
// CHECK: return
func.func @refresh(%x: !fhe.ct<4096>) -> !fhe.ct<4096> {
  %y = fhe.mul %x, %x : (!fhe.ct<4096>, !fhe.ct<4096>) -> !fhe.ct<4096>
  %b = fhe.bootstrap %y : !fhe.ct<4096>
  %z = fhe.mul %b, %b : (!fhe.ct<4096>, !fhe.ct<4096>) -> !fhe.ct<4096>
  return %z : !fhe.ct<4096>
}
