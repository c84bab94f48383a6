// The CUDA emitter at 32-bit words (word=32): the kernels' launch buffers
// are em_word = uint32_t residues (EmIO's pointers, cast from KernelIO's
// untyped ones by each launcher), and the entry takes CudaArgs32, the
// arguments of runCuda's 32-bit executor.
//
// Each thread of a generated kernel computes two coefficients at 32-bit
// words (lanes, by default 2 at 32 bits): every input is one 8-byte load
// (em_word2), a permuted input one load of the pair em_auto(k) & ~1 (an
// automorphism maps the pair k, k + 1 to a pair), every output one 8-byte
// store, and the launch has half the threads. lanes=1 is the kernel of one
// coefficient a thread, lanes=4 loads 16 bytes (em_word4).
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-cuda | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32 lanes=1}" %s | ember-translate --emit-cuda | FileCheck %s --check-prefix=ONE
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32 lanes=4}" %s | ember-translate --emit-cuda | FileCheck %s --check-prefix=FOUR
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32 lanes=4}" %s | FileCheck %s --check-prefix=ATTR
// RUN: %if nvcc %{ ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-cuda -o %t2.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t2.cu -o %t2.o %}
// RUN: %if nvcc %{ ember-opt "--ember-pipeline=fhe-to-kernel{word=32 lanes=4}" %s | ember-translate --emit-cuda -o %t4.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t4.cu -o %t4.o %}
// RUN: not ember-opt "--ember-pipeline=fhe-to-kernel{word=32 lanes=3}" %s 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: using em_word = uint32_t;
// CHECK: static constexpr int em_threads(int lanes) {
// CHECK: using em_word2 = uint2;
// CHECK: __device__ __forceinline__ const em_word *em_limb(const em_word *base, int g,
// CHECK: struct EmIO {
// CHECK-NEXT: const em_word *in[
// CHECK: em_word *out[
// CHECK: __global__ void kf0(const KernelLoop L, const EmIO io) {
// CHECK-NEXT: const int i = blockIdx.y;
// CHECK-NEXT: const size_t k = 2 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
// CHECK: const em_word *in0 = em_in((const em_word *)io.in[0], g, io.inb[0]);
// CHECK-NEXT: const em_word2 v0_0 = *(const em_word2 *)(in0 + k);
// CHECK-NEXT: const uint64_t x0_0 = v0_0.x;
// CHECK-NEXT: const uint64_t x0_1 = v0_0.y;
// CHECK: const uint64_t [[T:t[0-9]+]]_0 = em_mul(g, x0_0, x1_0); // rns.mul
// CHECK-NEXT: const uint64_t [[T]]_1 = em_mul(g, x0_1, x1_1); // rns.mul
// CHECK: *(em_word2 *)(out0 + k) = em_word2{em_word([[T]]_0), em_word([[T]]_1)};
// CHECK: v.in[j] = (const em_word *)io.in[j];
// CHECK: v.out[j] = (em_word *)io.out[j];
// CHECK: kf0<<<dim3(kN / (2 * em_threads(2)), L.limbs), em_threads(2), 0, s>>>(L, v);
// The rotation's permuted load: the pair, its halves swapped when odd.
// CHECK: const size_t [[A:a[0-9]+_0]] = em_auto(k, 5u);
// CHECK-NEXT: const em_word2 [[V:v[0-9]+_0]] = *(const em_word2 *)(in{{[0-9]+}} + ([[A]] & ~size_t(1)));
// CHECK-NEXT: const uint64_t [[X:x[0-9]+]]_0 = ([[A]] & 1) ? [[V]].y : [[V]].x, [[X]]_1 = ([[A]] & 1) ? [[V]].x : [[V]].y; // rns.automorphism
// CHECK: extern "C" int ember_program_word() { return 32; }
// CHECK: extern "C" void ember_program_run_cuda(const ember::program::CudaArgs32 &args) {

// ONE: const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
// ONE: const uint64_t x0 = in0[k];
// ONE: out0[k] = em_word(t0);
// ONE: kf0<<<dim3(kN / kThreads, L.limbs), kThreads, 0, s>>>(L, v);
// ONE-NOT: em_word2 v

// FOUR: using em_word4 = uint4;
// FOUR: const size_t k = 4 * (size_t(blockIdx.x) * blockDim.x + threadIdx.x);
// FOUR: const em_word4 v0_0 = *(const em_word4 *)(in0 + k);
// FOUR: const uint64_t x0_3 = v0_0.w;
// FOUR: *(em_word4 *)(out0 + k) = em_word4{em_word(t{{[0-9]+}}_0), em_word(t{{[0-9]+}}_1), em_word(t{{[0-9]+}}_2), em_word(t{{[0-9]+}}_3)};
// Four lanes of a permuted input: two pairs.
// FOUR: em_auto(k, 5u);
// FOUR: em_auto(k + 2, 5u);

// ATTR: func.func @mul_rot({{.*}}kernel.lanes = 4 : i64

// BAD: rns-fuse-elementwise lanes=3: generated kernels take 1, 2 or 4 coefficients per thread
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
