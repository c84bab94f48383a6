// The C++ emitter: named buffers, one generated function per kernel with
// the ops it fuses and the bytes it moves, runtime calls, one entry.
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cpp | FileCheck %s
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST

// CHECK: // Planned memory (kernel-plan-memory): arena {{[0-9]+}} bytes
// CHECK: #include "ember/program.h"
// CHECK: static constexpr size_t kN = 8192;
// CHECK: static const uint64_t kQ[3] = {1152921504606830593ull, 1099511480321ull, 1152921504606748673ull};
// CHECK: // k0: rns.mul (393216 bytes moved)
// CHECK-NEXT: static void k0_0(const uint64_t *__restrict__ a0, const uint64_t *__restrict__ a1, uint64_t *__restrict__ r0) {
// CHECK: em_mul(g, x0, x1); // rns.mul
// CHECK: // k4: rns.mul_p, rns.add
// CHECK: extern "C" void ember_program_run(const ember::program::CpuArgs &args) {
// CHECK: ember::program::checkInput(ctx, in, 0, "in0", 2, 1, 8, 1.09951162777600000e+12);
// CHECK: // kernel k0: fuses rns.mul; moves 393216 bytes
// CHECK: k0_0(
// CHECK: const auto &[[RK:b[0-9]+]] = ember::program::relinKey(keys);
// CHECK: ember::cpu::modUp(ctx, [[X:b[0-9]+]], 0);
// CHECK: ember::cpu::modUp(ctx, [[X]], 1);
// CHECK: ember::keySwitchInnerProduct(ctx, [[RK]], {&
// CHECK: ember::cpu::modSwitchDown(ctx, {{.*}}, ember::program::basis(ctx, 0, 2, 0, 0));
// CHECK: ember::cpu::automorphism(ctx, {{.*}}, 5);
// CHECK: ember::program::galoisKey(keys, 5);
// CHECK: ember::program::release(
// CHECK: ember::cpu::modSwitchDown(ctx, {{.*}}, ember::program::basis(ctx, 0, 1, 0, 0));
// CHECK: out.push_back(ember::program::makeCiphertext(ember::program::polys(std::move(

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
