// N = 2^13, so one limb is 8192 x 8 B = 65536 B and each q[0:2] buffer
// 131072 B. By hand: %x, %y at 0 and 131072; %a (op 0) at 262144; %y dies
// after op 0, so %b (op 1) reuses its slot at 131072; %x, %a die after op 1;
// %c (op 2) takes the lowest free slot, 0. Arena = 3 buffers = 393216 B;
// at most 3 buffers live at once. Without reuse: 5 slots = 655360 B.
// RUN: ember-opt --kernel-plan-memory=print=true %s | FileCheck %s
// RUN: ember-opt "--kernel-plan-memory=print=true reuse=false" %s -o /dev/null | FileCheck %s --check-prefix=NOREUSE

// CHECK: kernel-plan-memory @f: arena 393216 bytes, peak live 393216 bytes, 5 buffers
// CHECK: func.func @f
// CHECK-SAME: kernel.arena_bytes = 393216
// CHECK-SAME: kernel.arg_offsets = array<i64: 0, 131072>
// CHECK: kernel.launch "k0"{{.*}}offsets = array<i64: 262144>
// CHECK: kernel.launch "k1"{{.*}}offsets = array<i64: 131072>
// CHECK: kernel.launch "k2"{{.*}}offsets = array<i64: 0>

// NOREUSE: kernel-plan-memory @f: arena 655360 bytes, peak live 393216 bytes, 5 buffers
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @f(%x: !rns.poly<ntt, q[0:2]>, %y: !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    %a = kernel.launch "k0"(%x, %y) : (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>, %v: !rns.poly<ntt, q[0:2]>):
      %s = rns.add %u, %v : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %b = kernel.launch "k1"(%x, %a) : (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>, %v: !rns.poly<ntt, q[0:2]>):
      %s = rns.mul %u, %v : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %c = kernel.launch "k2"(%b) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    return %c : !rns.poly<ntt, q[0:2]>
  }
}
