// ModRaise from Q_0 of three limbs (32-bit words, double-prime scaling):
// rns.bconv's `exact` reaches the kernel call (which then needs no scratch:
// the exact kernel scales its inputs in registers) and the plan's step
// (imm[0] = 1: the runtime's bconvExact, on the CPU and the GPU alike).
// Encapsulation's one-limb lifts before it stay the fast centred BConv
// (imm[0] = 0), exact already from one limb.
// RUN: ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel --kernel-plan-memory %s | FileCheck %s --check-prefix=KERNEL
// RUN: ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel --kernel-plan-memory %s | ember-translate --emit-cpp | FileCheck %s
// RUN: %if nvcc %{ ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel --kernel-plan-memory %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// KERNEL-COUNT-5: kernel.call "bconv"({{.*}}) {offsets = array<i64: {{[0-9]+}}>, scratch = {{[0-9]+}} : i64} : (!rns.poly<coeff, q[{{[0-2]}}:{{[1-3]}}]>)
// KERNEL: kernel.call "bconv"({{.*}}) {exact, offsets = array<i64: {{[0-9]+}}>} : (!rns.poly<coeff, q[0:3]>) -> !rns.poly<coeff, q[3:7]>
// KERNEL: kernel.call "bconv"({{.*}}) {exact, offsets = array<i64: {{[0-9]+}}>} : (!rns.poly<coeff, q[0:3]>) -> !rns.poly<coeff, q[3:7]>
// KERNEL-NOT: "bconv"

// CHECK-COUNT-5: {StepKind::kBConv, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {0, 0, 0, 0}, {{.*}}, {{[0-9]+}}}, // bconv
// CHECK: {StepKind::kBConv, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {1, 0, 0, 0}, {{.*}}, -1}, // bconv
// CHECK: {StepKind::kBConv, {{[0-9]+}}, 1, {{[0-9]+}}, 1, {1, 0, 0, 0}, {{.*}}, -1}, // bconv
// CHECK-NOT: kBConv

!ct0 = !ckks.ct<8, level = 0, scale = 4398046511104.0>
!ct2 = !ckks.ct<8, level = 2, scale = 4398046511104.0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1073692673, 1376257, 3194881, 1589249, 2768897, 163841, 26836993], P = [1073643521], logScale = 42, dnum = 7, security = 0, word = 32, scalePrimes = 2>} {
  func.func @raise_encapsulated(%x: !ct0) -> !ct2 {
    %r = ckks.mod_raise %x {encapsulate, input_scale = 4398046511104.0 : f64} : !ct0 -> !ct2
    return %r : !ct2
  }
}
