// Eight independent rotations summed at set B: their raised outputs are
// summed before one ModDown (two sum kernels, one per part). Spread over
// two GPUs, the terms made on device 1 are added there first into one
// partial sum per part (a sum kernel named <sum>.d1), which alone moves
// to device 0, where the sum adds it to the terms made there. With
// partial-sums=false every term of device 1 would move, and the model
// keeps the program on one GPU.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2 partial-sums=false}" %s | FileCheck %s --check-prefix=OFF
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s | ember-opt --kernel-partition-devices="devices=2 print=true" -o /dev/null | FileCheck %s --check-prefix=PRINT

// PRINT: kernel-partition-devices @sums: 2 devices, {{.*}}, 2 partial sums; finish:

// CHECK-LABEL: func.func @sums
// CHECK: %[[P0:.+]] = kernel.launch "[[S0:k[0-9]+]].d1"(%{{[^,]+}}, %{{[^,]+}}, %{{[^,)]+}}) {{{.*}}device = 1 : i64
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: rns.add
// CHECK-NEXT: rns.add
// CHECK-NEXT: kernel.yield
// CHECK: %[[M0:.+]] = kernel.call "transfer"(%[[P0]]) {device = 1 : i64, {{.*}}to = 0 : i64} : (!rns.poly<ntt, q[0:24], p[0:8]>)
// CHECK: kernel.launch "[[S0]]"({{.*}}, %[[M0]]) {{{.*}}device = 0 : i64
// CHECK: return

// OFF-LABEL: func.func @sums
// OFF-SAME: kernel.devices = 1 : i64
// OFF-SAME: kernel.devices_requested = 2 : i64
// OFF-NOT: "transfer"
// OFF-NOT: .d1"
// OFF: return
func.func @sums(%x0: !fhe.ct<16>, %x1: !fhe.ct<16>, %x2: !fhe.ct<16>, %x3: !fhe.ct<16>, %x4: !fhe.ct<16>, %x5: !fhe.ct<16>, %x6: !fhe.ct<16>, %x7: !fhe.ct<16>) -> !fhe.ct<16> {
  %r0 = fhe.rotate %x0 by 1 : !fhe.ct<16>
  %r1 = fhe.rotate %x1 by 2 : !fhe.ct<16>
  %r2 = fhe.rotate %x2 by 3 : !fhe.ct<16>
  %r3 = fhe.rotate %x3 by 4 : !fhe.ct<16>
  %r4 = fhe.rotate %x4 by 5 : !fhe.ct<16>
  %r5 = fhe.rotate %x5 by 6 : !fhe.ct<16>
  %r6 = fhe.rotate %x6 by 7 : !fhe.ct<16>
  %r7 = fhe.rotate %x7 by 7 : !fhe.ct<16>
  %s1 = fhe.add %r0, %r1 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s2 = fhe.add %s1, %r2 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s3 = fhe.add %s2, %r3 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s4 = fhe.add %s3, %r4 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s5 = fhe.add %s4, %r5 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s6 = fhe.add %s5, %r6 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %s7 = fhe.add %s6, %r7 : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  return %s7 : !fhe.ct<16>
}
