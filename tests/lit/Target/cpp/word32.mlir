// A 32-bit program (word=32, double-prime scaling) through the whole
// pipeline: the emitted kernels read and write em_word = uint32_t residues
// (arithmetic in 64 bits, stored narrowed: every value is below its
// 30-bit prime), the entry takes CpuArgs32, and ember_program_word tells
// the loaders which arguments to pass. The manifest records the word size
// and the runtime's level of each input and output: the index of its top
// Q prime (level 1 of this chain holds q_0 and two pairs: limb level 4).
// The arena is planned in 4-byte words.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-cpp | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{word=32}" %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST

// CHECK: // N = 2^13, 5 Q + 3 P limbs, dnum 2.
// CHECK: using em_word = uint32_t;
// CHECK: static const uint64_t kQ[8] = {1073692673ull, 1589249ull, 2768897ull, 163841ull, 26836993ull, 1073643521ull, 1073479681ull, 1073430529ull};
// CHECK: em_limb(const em_word *base, int g,
// CHECK: static void kf0(const KernelLoop &L, const KernelIO &io) {
// CHECK: const em_word *in0 = em_limb((const em_word *)io.in[0], g, io.inb[0]);
// CHECK: em_word *out0 = (em_word *)em_limb((const em_word *)io.out[0], g, io.outb[0]);
// CHECK: out0[k] = em_word(t0);
// The rescale's results: q[0:3] from q[0:5] (a pair dropped).
// CHECK: const BufferSpec kBuffers
// CHECK-NEXT: {0, 5, 0, 0, 1, 0, 0,
// CHECK: {0, 3, 0, 0, 1, 0, 0,
// CHECK: extern "C" int ember_program_word() { return 32; }
// CHECK: extern "C" void ember_program_run(const ember::program::CpuArgs32 &args) {

// MANIFEST: "inputs": [
// MANIFEST: "level": 4,
// MANIFEST: "name": "in0",
// MANIFEST: "outputs": [
// MANIFEST: "level": 2,
// MANIFEST: "name": "out0",
// MANIFEST: "params": {
// MANIFEST: "log_scale": 42,
// MANIFEST: "scale_primes": 2,
// MANIFEST: "word": 32
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
