// A chain of dependent operations gains nothing from a second GPU: the
// partition keeps it whole on one device, with no transfer (the plan of
// devices=1, what was asked recorded), and says so.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s | ember-opt --kernel-partition-devices="devices=2 print=true" | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s | ember-opt --kernel-partition-devices="devices=1" | FileCheck %s --check-prefix=ONE

// CHECK: kernel-partition-devices @chain: kept on device 0 (predicted {{[0-9.]+}} us over 2 devices, {{[0-9.]+}} us on one)
// CHECK: func.func @chain
// CHECK-SAME: kernel.devices = 1 : i64
// CHECK-SAME: kernel.devices_requested = 2 : i64
// CHECK-SAME: kernel.transfer_bytes = 0 : i64
// CHECK-NOT: "transfer"
// CHECK-NOT: device = 1

// devices=1 leaves the program as it is.
// ONE-NOT: device =
// ONE-NOT: kernel.devices
func.func @chain(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %a by 1 : !fhe.ct<8>
  %b = fhe.mul %r, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %b : !fhe.ct<8>
}
