// A relinearization's ModDown right after its inner product (kernel-plan-
// memory ks-overlap, the default, here from N = 2^13 on): the plan's
// kModSwitchDown step follows the kKsInnerProduct step and has imm[1] = 1,
// which the runtime reads as "run the two as one step" (program_plan.h
// overlappedInnerProduct); with
// ks-overlap=false, imm[1] = 0 (and the digits' release comes between the
// two steps). The emitted CUDA builds with nvcc.
// RUN: ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel "--kernel-plan-memory=ks-overlap-min-log-n=13" %s | ember-translate --emit-cpp | FileCheck %s
// RUN: ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel "--kernel-plan-memory=ks-overlap=false ks-overlap-min-log-n=13" %s | ember-translate --emit-cpp | FileCheck %s --check-prefix=OFF
// RUN: %if nvcc %{ ember-opt --ckks-record-interface --ckks-to-rns --rns-to-kernel "--kernel-plan-memory=ks-overlap-min-log-n=13" %s | ember-translate --emit-cuda -o %t.cu && %nvcc -arch=sm_90 -std=c++17 -c -I %ember_src/runtime/include %t.cu -o %t.o %}

// CHECK: {StepKind::kKsInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 3, {0, 0, 0, 0}, {{.*}}}, // ks_inner_product
// CHECK-NEXT: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 2, {0, 1, 0, 0}, {{.*}}}, // mod_switch_down

// OFF: {StepKind::kKsInnerProduct, {{[0-9]+}}, 2, {{[0-9]+}}, 3, {0, 0, 0, 0}, {{.*}}}, // ks_inner_product
// OFF: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 2, {0, 0, 0, 0}, {{.*}}}, // mod_switch_down

!ct = !ckks.ct<8, level = 1, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 1, scale = 1208925819614629174706176.0, degree = 3>
!ctsq = !ckks.ct<8, level = 1, scale = 1208925819614629174706176.0>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321], P = [1152921504606748673], logScale = 40, dnum = 2, security = 128>} {
  func.func @square(%x: !ct) -> !ctsq {
    %m = ckks.mul %x, %x : !ct, !ct
    %r = ckks.relinearize %m : !ct3
    return %r : !ctsq
  }
}
