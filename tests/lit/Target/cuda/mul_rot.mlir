// The CUDA emitter: __global__ kernels for the fused regions launched on the
// context's stream, the key-switch inner product as a generated kernel,
// runtime calls of ember/cuda.h, one entry. The second RUN compiles the
// emitted .cu with nvcc -arch=sm_90 (unsupported without nvcc).
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda | FileCheck %s
// RUN: %if nvcc %{ ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// CHECK: #include "ember/program_cuda.h"
// CHECK: __constant__ const uint64_t kQ[3] =
// CHECK: __device__ __forceinline__ uint64_t em_mulhi(uint64_t a, uint64_t b) {
// CHECK: __global__ void em_ks_kernel(
// CHECK: // k0: rns.mul (393216 bytes moved)
// CHECK-NEXT: __global__ void k0_0(
// CHECK: extern "C" void ember_program_run_cuda(const ember::program::CudaArgs &args) {
// CHECK: ember::program::cudaCheckInput(in, 0, "in0", 2, 1, 8, 1.09951162777600000e+12);
// CHECK: ember::program::cudaPart(dctx, in[0], 0);
// CHECK: // kernel k0: fuses rns.mul; moves 393216 bytes
// CHECK: ember::program::cudaAlloc(dctx, ember::program::basis(dctx.host(), 0, 2, 0, 0), true);
// CHECK-NEXT: k0_0<<<dim3(kN / kThreads, 2), kThreads, 0, stream>>>(
// CHECK: ember::cuda::modUp(dctx, {{.*}}, 0);
// CHECK: em_ks_inner_product(dctx,
// CHECK: ember::cuda::modSwitchDown(dctx,
// CHECK: ember::cuda::automorphism(dctx, {{.*}}, 5);
// CHECK: ember::program::cudaRelease(
// CHECK: out.push_back(ember::program::cudaCiphertext(dctx, {&
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
