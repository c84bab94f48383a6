// A BFV program through fhe-to-kernel (scheme=bfv) to both emitters and the
// manifest: the plan's last field is BFV's t and its plain_modulus 0 (key
// switches are not t-corrected); the product is one kBfvTensor step (the
// runtime's BEHZ multiply, imm[0] = 1; HPS, 0, with bfv-mult=hps); inputs
// and outputs are at the top level with the scale Delta = Q / t; the
// vector multiplied is encoded at scale 1 (m),
// the one added at Delta (Delta m); no modulus switch other than the key
// switches' ModDowns; the manifest names the scheme and t.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{scheme=bfv}" %s -o %t.mlir
// RUN: ember-translate --emit-cpp %t.mlir | FileCheck %s
// RUN: ember-translate --emit-cuda %t.mlir | FileCheck %s --check-prefix=CUDA
// RUN: ember-translate --emit-manifest %t.mlir | FileCheck %s --check-prefix=MANIFEST
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{scheme=bfv}" %s | FileCheck %s --check-prefix=RNS
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{scheme=bfv bfv-mult=hps}" %s | ember-translate --emit-cpp | FileCheck %s --check-prefix=HPS

// RNS: %[[D0:.*]], %[[D1:.*]], %[[D2:.*]] = rns.bfv_tensor %arg0, %arg1, %arg2, %arg3 {behz} : !rns.poly<ntt, q[0:2]>
// RNS: rns.decompose %[[D2]]
// RNS-NOT: rns.rescale

// CHECK: {StepKind::kInput, {{[0-9]+}}, 2, {{[0-9]+}}, 0, {0, 1, 8, 0}, 2.02821001233621934e+31, -1}, // input 'a'
// CHECK: {StepKind::kBfvTensor, {{[0-9]+}}, 3, {{[0-9]+}}, 4, {1, 0, 0, 0}, {{.*}} // bfv_tensor
// HPS: {StepKind::kBfvTensor, {{[0-9]+}}, 3, {{[0-9]+}}, 4, {0, 0, 0, 0}, {{.*}} // bfv_tensor
// CHECK: {StepKind::kModSwitchDown,
// CHECK: {StepKind::kConstant, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 8, 0}, 1.00000000000000000e+00, -1}, // encode
// CHECK: {StepKind::kConstant, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {1, 0, 8, 0}, 2.02821001233621934e+31, -1}, // encode
// CHECK: {StepKind::kOutput, {{.*}}, 2.02821001233621934e+31, -1}, // output 'out0'
// CHECK: const Plan<CpuKernel> kPlan{kBuffers, {{.*}}, kInputNames, kPlainNames, {{[0-9]+}}, 0, 65537};
// CUDA: {StepKind::kBfvTensor,
// CUDA: const Plan<CudaKernel> kPlan{kBuffers, {{.*}}, kInputNames, kPlainNames, {{[0-9]+}}, 0, 65537};

// MANIFEST: "inputs": [
// MANIFEST: "level": 1,
// MANIFEST-NEXT: "name": "a",
// MANIFEST-NEXT: "polys": 2,
// MANIFEST-NEXT: "scale": 2.0282100123362193e+31,
// MANIFEST: "relin": true
// MANIFEST: "outputs": [
// MANIFEST: "level": 1,
// MANIFEST-NEXT: "name": "out0",
// MANIFEST-NEXT: "noise_budget": {{[0-9]+}},
// MANIFEST: "params": {
// MANIFEST: "plaintext_modulus": 65537,
// MANIFEST: "scheme": "bfv",
func.func @f(%a: !fhe.ct<8> {ember.name = "a"}, %b: !fhe.ct<8> {ember.name = "b"}) -> !fhe.ct<8> {
  %v = fhe.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64> -> !fhe.pt<8>
  %m = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %m, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %w = fhe.mul %s, %v : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %r = fhe.rotate %w by 1 : !fhe.ct<8>
  %o = fhe.add %r, %v : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
