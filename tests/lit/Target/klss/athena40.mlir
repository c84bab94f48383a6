// A program whose key switches go to KLSS (athena40, top level, forced with
// keyswitch=klss): the kernel lowering, the C++ and CUDA emitters and the
// manifest. The fourth RUN compiles the emitted .cu with nvcc (unsupported
// without). Left to the cost model (AUTO), only the relinearisation goes to
// KLSS (932 against 964 us); the hoisted pair of rotations stays hybrid
// (1264 against 1500 us).
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=athena40 keyswitch=klss}" %s -o %t.k.mlir
// RUN: ember-translate --emit-cpp %t.k.mlir | FileCheck %s --check-prefix=CPP
// RUN: ember-translate --emit-cuda %t.k.mlir | FileCheck %s --check-prefix=CUDA
// RUN: ember-translate --emit-manifest %t.k.mlir | FileCheck %s --check-prefix=MANIFEST
// RUN: %if nvcc %{ ember-translate --emit-cuda %t.k.mlir -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=athena40 keyswitch=klss key-memory-budget-mib=1000}" %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=BUDGET
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=athena40}" %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=AUTO
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=athena40 key-memory-budget-mib=750}" %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MIXED

// The plan: KLSS ModUp of the five digits (views of the input), the
// hoisted rotation's automorphisms of the T digits (runtime operations:
// generated kernels have no T basis, so fusion leaves them), the KLSS Galois key of
// 5 (a KLSS key buffer: key = 2), the KLSS inner product at level 39, the
// coefficient-form ModDown and one NTT; no hybrid key switching.
// CPP: {StepKind::kView, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {0, 8, 0, 0}
// CPP: {StepKind::kKlssModUp, {{[0-9]+}}, 5, {{[0-9]+}}, 5,
// CPP: {StepKind::kAutomorphism, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {5, 0, 0, 0}
// CPP: {StepKind::kLoadKey, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {5, 0, 0, 0}
// CPP-NEXT: {StepKind::kKlssInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 6, {39, 0, 0, 0}
// CPP: {StepKind::kModSwitchDown,
// CPP: {StepKind::kNtt,
// CPP: {StepKind::kLoadKey, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 0, 0}
// CPP-NOT: kKsInnerProduct
// CPP-NOT: kModUp,

// CUDA: {StepKind::kKlssModUp,
// CUDA: {StepKind::kKlssInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 6, {39, 0, 0, 0}
// CUDA: {StepKind::kModSwitchDown,
// CUDA-NOT: kKsInnerProduct
// CUDA: const CudaKernel kKernels[

// MANIFEST: "keys": {
// MANIFEST-NEXT: "galois": [],
// MANIFEST-NEXT: "klss_galois": [
// MANIFEST-NEXT: 5,
// MANIFEST-NEXT: 25
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "klss_relin": true,
// MANIFEST-NEXT: "relin": false
// MANIFEST: "evaluation_key_bytes": 943718400,
// MANIFEST-NEXT: "hybrid_key_bytes": 0,
// MANIFEST-NEXT: "klss_key_bytes": 943718400,
// MANIFEST: "gamma": 8,
// MANIFEST: "t": [
// MANIFEST-NEXT: 23{{[0-9]+}},

// Forced KLSS keys (3 x 300 MiB) fit 1000 MiB.
// BUDGET: "evaluation_key_bytes": 943718400,
// The cost model: hybrid Galois keys (2 x 240 MiB), the KLSS
// relinearisation key (300 MiB).
// AUTO: "galois": [
// AUTO-NEXT: 5,
// AUTO-NEXT: 25
// AUTO-NEXT: ],
// AUTO-NEXT: "klss_galois": [],
// AUTO-NEXT: "klss_relin": true,
// AUTO-NEXT: "relin": false
// AUTO: "evaluation_key_bytes": 817889280,
// With 750 MiB the relinearisation goes back to hybrid (32 us lost for
// 60 MiB saved): 3 x 240 MiB.
// MIXED: "klss_galois": [],
// MIXED-NEXT: "klss_relin": false,
// MIXED-NEXT: "relin": true
// MIXED: "evaluation_key_bytes": 754974720,
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r1 = fhe.rotate %x by 1 : !fhe.ct<8>
  %r2 = fhe.rotate %x by 2 : !fhe.ct<8>
  %s = fhe.add %r1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.add %s, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
