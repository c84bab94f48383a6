// Concurrency: a buffer goes where its bytes' last users already precede
// its op, so that the GPU's graph (which orders a step after the last users
// of the bytes it writes) keeps independent ops apart. Two chains:
// x -> k0 -> a -> k2 -> c and y -> k1 -> b -> k3 -> d. N = 2^13, so each
// q[0:2] buffer is 131072 B.
//
// First-fit (concurrency=0): x@0, y@131072; a@262144; b@0 (x's bytes,
// last read by k0 of the other chain); c@131072; d@262144 (a's bytes, last
// read by k2 of the other chain): arena 393216 B, and k1 follows k0, k3
// follows k2.
// concurrency=100 (budget 786432 B): a@262144; b@393216 (x's bytes were
// read by k0, which k1 does not follow, so the top); c@0 (x's bytes: k0
// precedes k2); d@131072 (y's bytes: k1 precedes k3): arena 524288 B, the
// chains unordered. concurrency=20 (budget 471859 B): b cannot go above the
// arena within it, so first-fit, as without.
// RUN: ember-opt "--kernel-plan-memory=print=true concurrency=100" %s | FileCheck %s
// RUN: ember-opt --kernel-plan-memory=print=true %s | FileCheck %s --check-prefix=MIN
// RUN: ember-opt "--kernel-plan-memory=print=true concurrency=20" %s | FileCheck %s --check-prefix=MIN
// RUN: not ember-opt "--kernel-plan-memory=concurrency=-1" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: kernel-plan-memory @f: arena 524288 bytes, peak live 393216 bytes, 6 buffers
// CHECK: kernel.launch "k0"{{.*}}offsets = array<i64: 262144>
// CHECK: kernel.launch "k1"{{.*}}offsets = array<i64: 393216>
// CHECK: kernel.launch "k2"{{.*}}offsets = array<i64: 0>
// CHECK: kernel.launch "k3"{{.*}}offsets = array<i64: 131072>

// MIN: kernel-plan-memory @f: arena 393216 bytes, peak live 393216 bytes, 6 buffers
// MIN: kernel.launch "k0"{{.*}}offsets = array<i64: 262144>
// MIN: kernel.launch "k1"{{.*}}offsets = array<i64: 0>
// MIN: kernel.launch "k2"{{.*}}offsets = array<i64: 131072>
// MIN: kernel.launch "k3"{{.*}}offsets = array<i64: 262144>

// ERR: kernel-plan-memory concurrency=-1: a percentage, 0 or more
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @f(%x: !rns.poly<ntt, q[0:2]>, %y: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
    %a = kernel.launch "k0"(%x) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %b = kernel.launch "k1"(%y) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %c = kernel.launch "k2"(%a) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    %d = kernel.launch "k3"(%b) : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]> {
    ^bb0(%u: !rns.poly<ntt, q[0:2]>):
      %s = rns.neg %u : !rns.poly<ntt, q[0:2]>
      kernel.yield %s : !rns.poly<ntt, q[0:2]>
    }
    return %c, %d : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  }
}
