// The C++ emitter: the program is a plan (buffers, argument lists, one step
// per runtime operation) that ember::program::run executes, plus one
// generated function per distinct fused kernel; launches that differ only
// in their buffers share a kernel.
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cpp | FileCheck %s
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST

// CHECK: // Planned memory (kernel-plan-memory): arena {{[0-9]+}} bytes
// CHECK: #include "ember/program_abi.h"
// CHECK: static constexpr size_t kN = 8192;
// CHECK: static const uint64_t kQ[3] = {1152921504606830593ull, 1099511480321ull, 1152921504606748673ull};
// CHECK: // kf0: reads 2, writes 1 words per coefficient and limb
// CHECK-NEXT: static void kf0(const KernelLoop &L, const KernelIO &io) {
// CHECK: em_mul(g, x0, x1); // rns.mul
// The tensor product's d0 and d1 and their sums with the relinearization's
// ModDown results: one kernel (sibling fusion).
// CHECK: // kf1: reads 6, writes 2
// d0 = a0 b0; d1 = a0 b1 + a1 b0 summed in 128 bits and reduced once, its
// products not evaluated on their own.
// Each input is loaded just before its first use.
// CHECK: = em_mul(g, x0, x1); // rns.mul
// CHECK-NEXT: const uint64_t x2 = in2 ? in2[k] : 0;
// CHECK-NEXT: const uint64_t x3 = in3 ? in3[k] : 0;
// CHECK-NEXT: = em_mac2(g, x0, x2, x3, x1); // rns.add
// CHECK-NEXT: const uint64_t x4 = in4 ? in4[k] : 0;
// CHECK-NEXT: = em_add(q, t0, x4); // rns.add
// The rotation's c0 side: rot(c0) + ModDown#0 in one kernel, c0 loaded
// at the automorphism's index (em_auto: X -> X^5).
// CHECK: // kf2: reads 2, writes 1
// CHECK: const uint64_t x0 = in0 ? in0[em_auto(k, 5u)] : 0; // rns.automorphism
// CHECK: em_add(q, x1, x0); // rns.add
// The merged ModDown's P * y + acc is read in place (lifted y): no kernel.
// CHECK-NOT: rns.mul_p
// CHECK-NOT: static void kf3
// The steps, in program order (input 0: level 1, 8 slots, scale 2^40).
// CHECK: const Step kSteps[
// CHECK-NEXT: {StepKind::kInput, {{[0-9]+}}, 2, {{[0-9]+}}, 0, {0, 1, 8, 0}, 1.09951162777600000e+12, -1}, // input 'in0'
// CHECK-NEXT: {StepKind::kInput, {{[0-9]+}}, 2, {{[0-9]+}}, 0, {1, 1, 8, 0}, 1.09951162777600000e+12, -1}, // input 'in1'
// CHECK-NEXT: {StepKind::kLaunch, {{.*}} // k0: rns.mul; moves 393216 bytes
// CHECK-NEXT: {StepKind::kLoadKey, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 0, 0}
// CHECK-NEXT: {StepKind::kModUp, {{[0-9]+}}, 2, {{[0-9]+}}, 1,
// CHECK: {StepKind::kKsInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 3,
// CHECK: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 2,
// The rotation by 1 in hoisted form: ModUp of c1, the Galois key of 5, and
// X -> X^5 read by the inner product (imm[0] = 5): no automorphism step.
// CHECK-NOT: kAutomorphism
// CHECK: {StepKind::kModUp, {{[0-9]+}}, 2, {{[0-9]+}}, 1,
// CHECK: {StepKind::kLoadKey, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {5, 0, 0, 0}
// CHECK: {StepKind::kKsInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 3, {5, 0, 0, 0}
// CHECK-NOT: kAutomorphism
// The merged ModDown + rescale: two accumulators, then the two lifted y.
// CHECK: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 4, {0, 0, 0, 0}
// CHECK: {StepKind::kRelease,
// CHECK: {StepKind::kOutput, {{[0-9]+}}, 0, {{[0-9]+}}, 2, {0, 8, {{[0-9]+}}, 0}, {{.*}} // output 'out0'
// CHECK-NEXT: };
// CHECK: const CpuKernel kKernels[3] = {kf0, kf1, kf2};
// CHECK: extern "C" void ember_program_run(const ember::program::CpuArgs &args) {
// CHECK-NEXT: ember::program::run(args, kPlan);

// MANIFEST: "keys": {
// MANIFEST-NEXT: "galois": [
// MANIFEST-NEXT: 5
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "relin": true
// MANIFEST: "log_n": 13,
// MANIFEST-NEXT: "log_scale": 40,
// MANIFEST-NEXT: "p": [
// MANIFEST-NEXT: 1152921504606748673
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %s : !fhe.ct<8>
}
