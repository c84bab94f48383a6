// ks-overlap (the default; here from N = 2^13 on, ks-overlap-min-log-n=13,
// where the default is 2^16): a mod_switch_down right after the inner product
// whose two results it switches down is marked `overlap`, and the inner
// product's digits live through it, so that the switch's results and
// scratch (written by its INTT and BConv while the GPU still runs the
// inner product's kept rows) never take the digits' bytes (the plan's
// step: tests/lit/Target/cpp/ks_overlap.mlir). A switch with another op in
// between is not marked, nor two key switches that could run side by side
// (neither an ancestor of the other); one that follows the other is.
//
// N = 2^13: one limb is 65536 B; q[0:2] 131072 B, q[0:2] u p[0:1] 196608 B.
// By hand (first fit): %d at 0; mod_up's digits at 131072 and 327680 (its
// scratch of 2 limbs at 524288, freed); %d dies. The accumulators at
// 524288 and 720896 (the gap at 0 is too small). The switch's results and
// its scratch (2 parts x 1 dropped limb = 131072 B):
// - overlapped: the digits live, so only [0, 131072) is free below the
//   top: results at 0 and 917504, scratch at 1048576; arena 1179648;
// - ks-overlap=false: the digits are dead: results at 0 and 131072 (over
//   the first digit), scratch at 262144; arena 917504.
// RUN: ember-opt "--kernel-plan-memory=print=true ks-overlap-min-log-n=13" %s | FileCheck %s
// RUN: ember-opt "--kernel-plan-memory=print=true ks-overlap=false ks-overlap-min-log-n=13" %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt --kernel-plan-memory %s | FileCheck %s --check-prefix=SMALL

// CHECK: kernel-plan-memory @relin: arena 1179648 bytes
// CHECK: kernel-plan-memory @apart: arena
// CHECK: kernel-plan-memory @side_by_side: arena
// CHECK: kernel-plan-memory @in_turn: arena
// CHECK-LABEL: func.func @relin
// CHECK: kernel.call "mod_up"{{.*}}offsets = array<i64: 131072, 327680>, scratch = 524288
// CHECK: kernel.call "ks_inner_product"{{.*}}offsets = array<i64: 524288, 720896>
// CHECK: kernel.call "mod_switch_down"{{.*}}{offsets = array<i64: 0, 917504>, overlap, scratch = 1048576 : i64}
// CHECK-LABEL: func.func @apart
// CHECK: kernel.call "mod_switch_down"
// CHECK-NOT: overlap
// CHECK-SAME: scratch
// CHECK-LABEL: func.func @side_by_side
// CHECK-COUNT-2: kernel.call "mod_switch_down"({{[^)]*}}) {offsets = array<i64: {{[0-9]+}}, {{[0-9]+}}>, scratch
// CHECK-LABEL: func.func @in_turn
// CHECK-COUNT-2: kernel.call "mod_switch_down"({{[^)]*}}) {offsets = array<i64: {{[0-9]+}}, {{[0-9]+}}>, overlap, scratch

// At the default ks-overlap-min-log-n (16), N = 2^13 is not marked.
// SMALL-NOT: overlap

// OFF: kernel-plan-memory @relin: arena 917504 bytes
// OFF: kernel.call "mod_switch_down"{{.*}}{offsets = array<i64: 0, 131072>, scratch = 262144 : i64}
// OFF-NOT: overlap

!q = !rns.poly<ntt, q[0:2]>
!qp = !rns.poly<ntt, q[0:2], p[0:1]>
!evk = !rns.evk<dnum = 2, q = 2, p = 1>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @relin(%d: !q) -> (!q, !q) {
    %k = kernel.call "load_key"() : () -> !evk
    %up:2 = kernel.call "mod_up"(%d) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %a:2 = kernel.call "ks_inner_product"(%k, %up#0, %up#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %m:2 = kernel.call "mod_switch_down"(%a#0, %a#1) : (!qp, !qp) -> (!q, !q)
    return %m#0, %m#1 : !q, !q
  }
  // A kernel between the inner product and its switch: not overlapped.
  func.func @apart(%d: !q, %e: !q) -> (!q, !q, !q) {
    %k = kernel.call "load_key"() : () -> !evk
    %up:2 = kernel.call "mod_up"(%d) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %a:2 = kernel.call "ks_inner_product"(%k, %up#0, %up#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %n = kernel.call "ntt"(%e) : (!q) -> !q
    %m:2 = kernel.call "mod_switch_down"(%a#0, %a#1) : (!qp, !qp) -> (!q, !q)
    return %m#0, %m#1, %n : !q, !q, !q
  }
  // Two independent key switches: the graph runs them side by side.
  func.func @side_by_side(%d: !q, %e: !q) -> (!q, !q, !q, !q) {
    %k = kernel.call "load_key"() : () -> !evk
    %up:2 = kernel.call "mod_up"(%d) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %a:2 = kernel.call "ks_inner_product"(%k, %up#0, %up#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %m:2 = kernel.call "mod_switch_down"(%a#0, %a#1) : (!qp, !qp) -> (!q, !q)
    %up2:2 = kernel.call "mod_up"(%e) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %b:2 = kernel.call "ks_inner_product"(%k, %up2#0, %up2#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %n:2 = kernel.call "mod_switch_down"(%b#0, %b#1) : (!qp, !qp) -> (!q, !q)
    return %m#0, %m#1, %n#0, %n#1 : !q, !q, !q, !q
  }
  // The second key switch reads the first's result: each is alone.
  func.func @in_turn(%d: !q) -> (!q, !q) {
    %k = kernel.call "load_key"() : () -> !evk
    %up:2 = kernel.call "mod_up"(%d) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %a:2 = kernel.call "ks_inner_product"(%k, %up#0, %up#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %m:2 = kernel.call "mod_switch_down"(%a#0, %a#1) : (!qp, !qp) -> (!q, !q)
    %up2:2 = kernel.call "mod_up"(%m#1) {digits = array<i64: 0, 1>} : (!q) -> (!qp, !qp)
    %b:2 = kernel.call "ks_inner_product"(%k, %up2#0, %up2#1) : (!evk, !qp, !qp) -> (!qp, !qp)
    %n:2 = kernel.call "mod_switch_down"(%b#0, %b#1) : (!qp, !qp) -> (!q, !q)
    return %m#0, %n#1 : !q, !q
  }
}
