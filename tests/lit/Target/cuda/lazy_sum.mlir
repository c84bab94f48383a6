// Lazy sums in generated kernels: three products summed (lazy
// relinearisation sums the tensor products before one key switch) give
// d0 = a0 b0 + c0 d0 + e0 f0 (3 products), d1 (6) and d2 (3). Each product
// is kept unreduced in two words, the adds carry between them, and each sum
// is reduced once (em_reduce_sum), not once per product. At 32-bit words
// (moduli below 2^31) and with lazy-sums=false (the off switch: the fused
// op and its launch carry lazy_sums = false) each product is reduced
// (em_mul / em_mac2). The last RUN compiles the emitted .cu with nvcc
// (unsupported without nvcc).
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-cuda | FileCheck %s --check-prefix=EACH
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{lazy-sums=false}" %s | FileCheck %s --check-prefix=ATTR
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{lazy-sums=false}" %s | ember-translate --emit-cuda | FileCheck %s --check-prefix=EACH
// RUN: %if nvcc %{ ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// CHECK: __constant__ const uint64_t kRatioHi[
// CHECK: __device__ __forceinline__ uint64_t em_reduce_sum(uint64_t x_lo, uint64_t x_hi, int g) {
// CHECK: __global__ void kf0(
// CHECK: const uint64_t [[P:t[0-9]+]]_lo = x{{[0-9]+}} * x{{[0-9]+}}, [[P]]_hi = em_mulhi(x{{[0-9]+}}, x{{[0-9]+}}); // rns.mul, unreduced
// CHECK: const uint64_t [[S:t[0-9]+]]_lo = [[A:t[0-9]+]]_lo + [[B:t[0-9]+]]_lo, [[S]]_hi = [[A]]_hi + [[B]]_hi + ([[S]]_lo < [[A]]_lo); // rns.add, unreduced
// CHECK-DAG: em_reduce_sum(t{{[0-9]+}}_lo, t{{[0-9]+}}_hi, g); // the sum of 3 products, reduced
// CHECK-DAG: em_reduce_sum(t{{[0-9]+}}_lo, t{{[0-9]+}}_hi, g); // the sum of 6 products, reduced
// CHECK-NOT: em_mul(g,
// CHECK-NOT: em_mac2(g,
// CHECK: out2[k] = em_word(

// ATTR: kernel.launch
// ATTR-SAME: lazy_sums = false

// EACH: __global__ void kf0(
// EACH-NOT: em_reduce_sum(t
// EACH: em_mac2(g,
// EACH-NOT: em_reduce_sum(t
// EACH: }

func.func @dot3(%a: !fhe.ct<8>, %b: !fhe.ct<8>, %c: !fhe.ct<8>, %d: !fhe.ct<8>, %e: !fhe.ct<8>, %f: !fhe.ct<8>) -> !fhe.ct<8> {
  %m1 = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m2 = fhe.mul %c, %d : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %m3 = fhe.mul %e, %f : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %m1, %m2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.add %s, %m3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
