// Recompute over transfer: s = rot(x * y) is read by two chains, one per
// GPU. At 100 GB/s the model prices running some of the kernels behind
// s again on the GPU that reads them below moving their results: the
// clones carry `recomputed`, on the reader's device, with their own
// planned offsets (the pipeline plans memory after the partition).
// recompute=false (recompute=true is the default: the faster on two H200s) moves
// every such buffer instead.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s -o %t.mlir
// RUN: ember-opt --kernel-partition-devices="devices=2 link-gbps=100 link-latency-us=0 recompute=true print=true" %t.mlir -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2 link-gbps=100 link-latency-us=0 recompute=true}" %s | FileCheck %s
// RUN: ember-opt --kernel-partition-devices="devices=2 link-gbps=100 link-latency-us=0 recompute=false print=true" %t.mlir | FileCheck %s --check-prefix=OFF

// PRINT: kernel-partition-devices @shared: 2 devices, {{.*}} transfers ({{[0-9.]+}} MB), {{[1-9][0-9]*}} kernels run again
// CHECK: func.func @shared
// CHECK-SAME: kernel.devices = 2 : i64
// CHECK: kernel.call "mod_switch_down"({{.*}}) {device = {{[01]}} : i64, offsets = array<i64: {{[0-9]+}}, {{[0-9]+}}>, recomputed, scratch
// CHECK: return

// OFF: kernel-partition-devices @shared: 2 devices, {{.*}} transfers ({{[0-9.]+}} MB), 0 kernels run again
// OFF-NOT: recomputed
func.func @shared(%x: !fhe.ct<8>, %y: !fhe.ct<8>, %z: !fhe.ct<8>, %w: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.rotate %m by 1 : !fhe.ct<8>
  %a1 = fhe.mul %s, %z : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %a2 = fhe.rotate %a1 by 3 : !fhe.ct<8>
  %a3 = fhe.mul %a2, %z : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %a = fhe.rotate %a3 by 5 : !fhe.ct<8>
  %b1 = fhe.mul %s, %w : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b2 = fhe.rotate %b1 by 2 : !fhe.ct<8>
  %b3 = fhe.mul %b2, %w : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.rotate %b3 by 7 : !fhe.ct<8>
  %r = fhe.add %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %r : !fhe.ct<8>
}
