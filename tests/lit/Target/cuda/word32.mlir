// The CUDA emitter at 32-bit words (word=32): the kernels' launch buffers
// are em_word = uint32_t residues (EmIO's pointers, cast from KernelIO's
// untyped ones by each launcher), and the entry takes CudaArgs32, the
// arguments of runCuda's 32-bit executor.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-cuda | FileCheck %s

// CHECK: using em_word = uint32_t;
// CHECK: __device__ __forceinline__ const em_word *em_limb(const em_word *base, int g,
// CHECK: struct EmIO {
// CHECK-NEXT: const em_word *in[
// CHECK: em_word *out[
// CHECK: __global__ void kf0(const KernelLoop L, const EmIO io) {
// CHECK: out0[k] = em_word(t0);
// CHECK: v.in[j] = (const em_word *)io.in[j];
// CHECK: v.out[j] = (em_word *)io.out[j];
// CHECK: extern "C" int ember_program_word() { return 32; }
// CHECK: extern "C" void ember_program_run_cuda(const ember::program::CudaArgs32 &args) {
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
