// One arena per device: a reused part, then an unshared part for the
// buffers a transfer reads or writes (it runs beside the kernels, so no
// other buffer may use their bytes). N = 2^13: a q[0:2] buffer is 131072 B.
// Device 0: %x at 0 (argument); %c (k2) reuses it once %x is dead: a
// reused part of 131072 B; then %a (sent) at 131072 and %u (received) at
// 262144. Device 1 reuses nothing: %t (received) at 0, %b (sent) at 131072.
// RUN: ember-opt --kernel-plan-memory=print=true %s | FileCheck %s

// CHECK: kernel-plan-memory @f: arena 393216 bytes, peak live {{[0-9]+}} bytes, 6 buffers; device arenas: 393216 262144
// CHECK: func.func @f
// CHECK-SAME: kernel.arena_bytes = 393216
// CHECK-SAME: kernel.device_arena_bytes = array<i64: 393216, 262144>
// CHECK: kernel.launch "k0"{{.*}}offsets = array<i64: 131072>
// CHECK: kernel.call "transfer"{{.*}}offsets = array<i64: 0>, to = 1
// CHECK: kernel.launch "k1"{{.*}}offsets = array<i64: 131072>
// CHECK: kernel.call "transfer"{{.*}}offsets = array<i64: 262144>, to = 0
// CHECK: kernel.launch "k2"{{.*}}offsets = array<i64: 0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @f(%x: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> attributes {kernel.devices = 2 : i64} {
    %a = kernel.launch "k0"(%x) {device = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %t = kernel.call "transfer"(%a) {device = 0 : i64, to = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    %b = kernel.launch "k1"(%t) {device = 1 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %u = kernel.call "transfer"(%b) {device = 1 : i64, to = 0 : i64} : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
    %c = kernel.launch "k2"(%u, %a) {device = 0 : i64} : (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%v: !rns.poly<ntt, q[0:2]>, %w: !rns.poly<ntt, q[0:2]>):
      %s = rns.add %v, %w : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    return %c : !rns.poly<ntt, q[0:2]>
  }
}
