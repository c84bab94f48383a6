// Two independent products with their rotations, summed: at set B the
// partition puts one branch on each GPU (the inputs of the second cross
// to device 1, its results come back to device 0 for the sum), and the
// model predicts it faster than one GPU.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B lift-addends=false}" %s | ember-opt --kernel-partition-devices="devices=2 print=true" -o /dev/null | FileCheck %s --check-prefix=PRINT

// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B lift-addends=false}" %s | ember-opt --kernel-partition-devices="devices=4 print=true" | FileCheck %s --check-prefix=FOUR

// Two branches give a third and fourth GPU nothing to do: of four asked
// for, the partition over two is kept (it tries 2 and 4), and the request
// is recorded.
// FOUR: kernel-partition-devices @two: 2 of 4 devices, predicted
// FOUR: func.func @two
// FOUR-SAME: kernel.devices = 2 : i64
// FOUR-SAME: kernel.devices_requested = 4 : i64
// FOUR-NOT: device = 2
// FOUR-NOT: device = 3
// FOUR-NOT: to = 2
// FOUR-NOT: to = 3

// PRINT: kernel-partition-devices @two: 2 devices, predicted {{[0-9.]+}} us (one device {{[0-9.]+}} us, 1.{{[0-9]+}}x), {{[0-9]+}} transfers
// The schedule kept, of the orders and comm weights tried.
// PRINT-SAME: schedule: {{(rank|chains)}} order, comm weight {{0.5|1|2}}

// CHECK: func.func @two
// CHECK-SAME: kernel.device_arena_bytes = array<i64: {{[1-9][0-9]*}}, {{[1-9][0-9]*}}>
// CHECK-SAME: kernel.devices = 2 : i64
// CHECK-SAME: kernel.transfer_bytes = {{[1-9][0-9]*}} : i64
// Inputs cross to device 1 before its first kernel.
// CHECK: kernel.call "transfer"(%arg{{[0-9]+}}) {device = 0 : i64, {{.*}}to = 1 : i64}
// Each branch's key switch on its own device, its keys loaded there.
// CHECK-DAG: kernel.call "load_key"() {device = 0 : i64
// CHECK-DAG: kernel.call "load_key"() {device = 1 : i64
// CHECK-DAG: kernel.call "ks_inner_product"({{.*}}) {device = 0 : i64
// CHECK-DAG: kernel.call "ks_inner_product"({{.*}}) {device = 1 : i64
// Device 1's results come back to device 0.
// CHECK: kernel.call "transfer"({{.*}}) {device = 1 : i64, {{.*}}to = 0 : i64}
// CHECK: return
func.func @two(%x: !fhe.ct<8>, %y: !fhe.ct<8>, %z: !fhe.ct<8>, %w: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %ra = fhe.rotate %a by 1 : !fhe.ct<8>
  %b = fhe.mul %z, %w : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %rb = fhe.rotate %b by 2 : !fhe.ct<8>
  %s = fhe.add %ra, %rb : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
