// Concurrency in each device's arena: the two chains of concurrency.mlir
// on device 1, fed by transfers from device 0 and sent back. Transferred
// buffers have bytes of their own (devices.mlir); device 1's reused arena
// holds a, b, c and d. N = 2^13, so each q[0:2] buffer is 131072 B.
//
// First-fit: a@0, b@131072, c@262144; d@0 (a's bytes, last read by k2 of
// the other chain): device 1's graph would order k3 after k2. Device 1:
// a reused arena of 393216 B, then tx, ty, e and f (4 x 131072); device
// 0: x and y sent, e and f received back (4 x 131072), nothing reused.
// concurrency=100 (device 1's budget 786432 B, its own minimal arena
// doubled): d@393216, the top, instead: reused arena 524288 B, the chains
// unordered. Device 0's budget is 0 (nothing reused there).
// RUN: ember-opt "--kernel-plan-memory=print=true concurrency=100" %s | FileCheck %s
// RUN: ember-opt --kernel-plan-memory=print=true %s | FileCheck %s --check-prefix=MIN

// CHECK: device arenas: 524288 1048576
// CHECK: kernel.launch "k0"{{.*}}offsets = array<i64: 0>
// CHECK: kernel.launch "k1"{{.*}}offsets = array<i64: 131072>
// CHECK: kernel.launch "k2"{{.*}}offsets = array<i64: 262144>
// CHECK: kernel.launch "k3"{{.*}}offsets = array<i64: 393216>

// MIN: device arenas: 524288 917504
// MIN: kernel.launch "k0"{{.*}}offsets = array<i64: 0>
// MIN: kernel.launch "k1"{{.*}}offsets = array<i64: 131072>
// MIN: kernel.launch "k2"{{.*}}offsets = array<i64: 262144>
// MIN: kernel.launch "k3"{{.*}}offsets = array<i64: 0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @f(%x: !rns.poly<ntt, q[0:2]>, %y: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) attributes {kernel.devices = 2 : i64} {
    %tx = kernel.call "transfer"(%x) {device = 0 : i64, to = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    %ty = kernel.call "transfer"(%y) {device = 0 : i64, to = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    %a = kernel.launch "k0"(%tx) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %b = kernel.launch "k1"(%ty) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %c = kernel.launch "k2"(%a) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %d = kernel.launch "k3"(%b) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %e = kernel.launch "k4"(%c) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %f = kernel.launch "k5"(%d) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %re = kernel.call "transfer"(%e) {device = 1 : i64, to = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    %rf = kernel.call "transfer"(%f) {device = 1 : i64, to = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    return %re, %rf : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  }
}
