// x*y relinearized, then + rot(., 1) with the rescale merged into the
// ModDown: every structured rns op becomes one runtime call, every fusion
// region one generated kernel with the bytes it moves (N = 2^13: one limb
// is 65536 B).
// RUN: ember-opt --ember-pipeline=fhe-to-rns %s | ember-opt --rns-to-kernel | FileCheck %s
// RUN: ember-opt --ember-pipeline=fhe-to-rns %s | ember-opt --rns-to-kernel | FileCheck %s --check-prefix=NORNS --implicit-check-not=rns.mod_up --implicit-check-not=rns.mod_down --implicit-check-not=rns.decompose --implicit-check-not=rns.ks_inner_product --implicit-check-not=rns.fused

// CHECK-LABEL: func.func @mul_rot
// CHECK-SAME: ember.interface = {inputs = [{degree = 2 : i64, level = 1 : i64, name = "in0", range = [-1.000000e+00, 1.000000e+00], scale = {{.*}} : f64, slots = 8 : i64}
// CHECK: kernel.launch "k0"({{.*}}) {bytes = 393216 : i64}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.mul
// CHECK-NEXT: kernel.yield
// CHECK: %[[RK:.*]] = kernel.call "load_key"() : () -> !rns.evk<dnum = 2, q = 2, p = 1>
// CHECK-NEXT: %[[UP:.*]]:2 = kernel.call "mod_up"(%[[D:.*]]) {digits = array<i64: 0, 1>{{.*}}}
// CHECK-NEXT: %[[IP:.*]]:2 = kernel.call "ks_inner_product"(%[[RK]], %[[UP]]#0, %[[UP]]#1)
// CHECK-NEXT: kernel.call "mod_switch_down"(%[[IP]]#0, %[[IP]]#1) : {{.*}} -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>)
// The tensor product's d0 and d1 and their sums with the ModDown results:
// one kernel (sibling fusion) reading a0, b0, b1, a1 and the two ModDown
// results, writing two: 8 q[0:2] buffers = 16 limbs.
// CHECK: kernel.launch "k1"({{.*}}) {bytes = 1048576 : i64}
// CHECK-COUNT-3: rns.mul
// CHECK-COUNT-3: rns.add
// CHECK-NEXT: kernel.yield
// The lone rotation in hoisted form: ModUp of c1, then X -> X^5 read by
// the inner product ({galois = 5}), no automorphism call.
// CHECK-NOT: kernel.call "automorphism"
// CHECK: kernel.call "mod_up"
// CHECK: kernel.call "load_key"() {galois = 5 : i64}
// CHECK: %[[GIP:.*]]:2 = kernel.call "ks_inner_product"({{.*}}) {galois = 5 : i64}
// c0 + rot(c0): the y of part 0.
// CHECK: %[[Y0:.*]] = kernel.launch "k2"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.automorphism
// CHECK-NEXT: rns.add
// CHECK-NEXT: kernel.yield
// The merged ModDown + rescale: Q_1 u P -> Q_0 in one call that reads
// P * y + acc in place (lifted y: no mul_p/add kernel over Q_1 u P).
// CHECK-NOT: rns.mul_p
// CHECK: kernel.call "mod_switch_down"(%[[GIP]]#0, %[[GIP]]#1, %[[Y0]], %{{.*}}#1) : (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:1]>, !rns.poly<ntt, q[0:1]>)
// CHECK-NEXT: return

// NORNS: func.func @mul_rot
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
