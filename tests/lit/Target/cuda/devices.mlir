// A program partitioned over two GPUs, emitted: each step names its device
// (the last field), a kTransfer step names its receiver (imm[0]), releases
// run on every device (-1), and the plan carries the device count and each
// device's arena. The C++ emitter writes the same plan (the CPU simulates
// the devices). The last RUN compiles the emitted .cu with nvcc.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | ember-translate --emit-cuda | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | ember-translate --emit-cpp | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: %if nvcc %{ ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2}" %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// CHECK: {StepKind::kInput,{{.*}}, 0},
// CHECK: {StepKind::kPlainInput,{{.*}}, -1},
// CHECK: {StepKind::kTransfer, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {1, 0, 0, 0}, {{.*}}, -1, 0}, // transfer
// CHECK: {StepKind::kKsInnerProduct,{{.*}}, 1},
// CHECK: {StepKind::kRelease,{{.*}}, -1},
// CHECK: {StepKind::kTransfer, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {0, 0, 0, 0}, {{.*}}, -1, 1}, // transfer
// CHECK: {StepKind::kOutput,{{.*}}, 0},
// CHECK: const int64_t kDeviceArena[2] = {{{[1-9][0-9]*}}, {{[1-9][0-9]*}}};
// CHECK: kInputNames, kPlainNames, {{[0-9]+}}, 0, 0, 2, kDeviceArena};

// MANIFEST: "devices": {
// MANIFEST: "arena_bytes": [
// MANIFEST: "count": 2,
// MANIFEST: "keys": [
// MANIFEST: "galois": [
// MANIFEST: "key_bytes": {{[1-9][0-9]*}},
// MANIFEST: "one_device_predicted_us":
// MANIFEST: "predicted_us": [
// MANIFEST: "transfer_bytes": {{[1-9][0-9]*}}
func.func @two(%x: !fhe.ct<8>, %y: !fhe.ct<8>, %z: !fhe.ct<8>, %w: !fhe.ct<8>, %p: !fhe.pt<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %ra = fhe.rotate %a by 1 : !fhe.ct<8>
  %b = fhe.mul %z, %w : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %rb = fhe.rotate %b by 2 : !fhe.ct<8>
  %s = fhe.add %ra, %rb : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.mul %s, %p : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
