// The CUDA emitter: the same plan as the C++ emitter (ember::program::runCuda
// executes it on the context's stream), each distinct fused kernel a
// __global__ function taking its launch's buffers by value plus the host
// wrapper the plan calls. The second RUN compiles the emitted .cu with nvcc
// -arch=sm_90 (unsupported without nvcc).
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda | FileCheck %s
// RUN: %if nvcc %{ ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// CHECK: #include "ember/program_abi.h"
// CHECK: __constant__ const uint64_t kQ[3] =
// CHECK: __device__ const uint64_t kConst[
// CHECK: __device__ __forceinline__ uint64_t em_mulhi(uint64_t a, uint64_t b) {
// CHECK: uint64_t em_mac2(int g, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
// CHECK: return q || p ? base + size_t(limb) * kN : absent;
// The permuted loads' index: __brev in em_auto.
// CHECK: return __brev(x);
// An input's limb is never null on the GPU (zeros where the buffer has
// none), so a load needs no branch.
// CHECK: __device__ em_word em_zeros[kN];
// CHECK: __device__ __forceinline__ const em_word *em_in(const em_word *base, int g,
// CHECK: return em_limb(base, g, b, em_zeros);
// CHECK: struct EmIO {
// CHECK: // kf0: reads 2, writes 1 words per coefficient and limb
// CHECK-NEXT: __global__ void kf0(const KernelLoop L, const EmIO io) {
// CHECK: em_mul(g, x0, x1); // rns.mul
// CHECK: static void lkf0(const KernelLoop &L, const KernelIO &io, cudaStream_t s) {
// CHECK: kf0<<<dim3(kN / kThreads, L.limbs), kThreads, 0, s>>>(L, v);
// The tensor product's d1 = a0 b1 + a1 b0: one reduction (em_mac2).
// CHECK: = em_mac2(g, x0, x2, x3, x1); // rns.add
// CHECK: = in0[em_auto(k, 5u)]; // rns.automorphism
// CHECK: {StepKind::kInput,
// CHECK: {StepKind::kKsInnerProduct,
// CHECK-NOT: kAutomorphism
// CHECK: {StepKind::kKsInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 3, {5, 0, 0, 0}
// CHECK-NOT: kAutomorphism
// CHECK: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 4, {0, 0, 0, 0}
// CHECK: {StepKind::kOutput,
// CHECK: const CudaKernel kKernels[3] = {lkf0, lkf1, lkf2};
// CHECK: extern "C" void ember_program_run_cuda(const ember::program::CudaArgs &args) {
// CHECK-NEXT: ember::program::runCuda(args, kPlan);
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
