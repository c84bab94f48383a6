// A BGV program through fhe-to-kernel (scheme=bgv) to both emitters and the
// manifest: the plan carries the plaintext modulus (before its last field,
// which is BFV's t, 0 here), which
// makes every modulus switch and ModDown the t-corrected one; constants are
// encoded at the factor (the step's scale); the manifest names the scheme,
// t and each output's estimated noise budget. The product's key switch
// and modulus switch are one merged ModDown (rns-merge-moddown).
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{scheme=bgv}" %s -o %t.mlir
// RUN: ember-translate --emit-cpp %t.mlir | FileCheck %s
// RUN: ember-translate --emit-cuda %t.mlir | FileCheck %s --check-prefix=CUDA
// RUN: ember-translate --emit-manifest %t.mlir | FileCheck %s --check-prefix=MANIFEST
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bgv}" %s | FileCheck %s --check-prefix=RNS

// RNS: rns.mod_down %{{.*}}, %{{.*}} lifted(%{{.*}}, %{{.*}} : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>) : {{.*}} -> !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>

// CHECK: static const uint64_t kQ[4] = {4398046150657ull, 1100602163201ull, 1127446118401ull, 2305843009213317121ull};
// CHECK: {StepKind::kModSwitchDown,
// CHECK: {StepKind::kConstant, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 8, 0}, 1.00000000000000000e+00, -1}, // encode
// CHECK: const Plan<CpuKernel> kPlan{kBuffers, {{.*}}, kInputNames, kPlainNames, {{[0-9]+}}, 65537, 0};
// CUDA: const Plan<CudaKernel> kPlan{kBuffers, {{.*}}, kInputNames, kPlainNames, {{[0-9]+}}, 65537, 0};

// MANIFEST: "inputs": [
// MANIFEST: "level": 2,
// MANIFEST-NEXT: "name": "a",
// MANIFEST-NEXT: "polys": 2,
// MANIFEST-NEXT: "scale": 1,
// MANIFEST: "keys": {
// MANIFEST-NEXT: "galois": [
// MANIFEST-NEXT: 5
// MANIFEST: "relin": true
// MANIFEST: "outputs": [
// MANIFEST: "level": 0,
// MANIFEST-NEXT: "name": "out0",
// MANIFEST-NEXT: "noise_budget": {{[0-9]+}},
// MANIFEST: "params": {
// MANIFEST: "plaintext_modulus": 65537,
// MANIFEST: "scheme": "bgv",
func.func @f(%a: !fhe.ct<8> {ember.name = "a"}, %b: !fhe.ct<8> {ember.name = "b"}) -> !fhe.ct<8> {
  %v = fhe.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64> -> !fhe.pt<8>
  %m = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %m, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %w = fhe.mul %s, %v : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %r = fhe.rotate %w by 1 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}
