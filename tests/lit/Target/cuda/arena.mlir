// One arena (kernel-plan-memory -> the emitted plan): every buffer the
// memory plan placed carries its arena offset into the emitted BufferSpec
// (inputs at kernel.arg_offsets, each result at its op's `offsets`), the
// runtime primitives that need temporaries get a `scratch` range of the
// arena (mod_up: the INTT of the digits, as many limbs as its input;
// mod_switch_down: the dropped limbs of every part, switched in one batch,
// and the dropped Q limbs of each lifted P * y + acc) that the step names, constants stay
// out of the arena, and kPlan carries kernel.arena_bytes, which is all the
// CUDA runtime allocates for a run (runtime/cuda/program.cu, CudaArena).
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s -o %t.k.mlir
// RUN: ember-translate --emit-cuda %t.k.mlir -o %t.cu
// RUN: cat %t.k.mlir %t.cu | FileCheck %s

// CHECK: func.func @mul_rot(
// CHECK-SAME: kernel.arena_bytes = [[ARENA:[0-9]+]] : i64
// CHECK-SAME: kernel.arg_offsets = array<i64: [[A0:[0-9]+]], [[A1:[0-9]+]], [[A2:[0-9]+]], [[A3:[0-9]+]]>
// CHECK: kernel.call "encode"
// CHECK-NOT: offsets
// CHECK-SAME: -> !rns.poly
// CHECK: kernel.call "mod_up"({{.*}}) {digits = array<i64: 0, 1>
// CHECK-SAME: offsets = array<i64: [[U0:[0-9]+]], [[U1:[0-9]+]]>, scratch = [[US:[0-9]+]] : i64}
// CHECK-SAME: (!rns.poly<ntt, q[0:2]>)
// CHECK: kernel.call "mod_switch_down"({{.*}}) {offsets = array<i64: [[D0:[0-9]+]], [[D1:[0-9]+]]>, scratch = [[DS:[0-9]+]] : i64}
// CHECK-SAME: (!rns.poly<ntt, q[0:2], p[0:1]>, !rns.poly<ntt, q[0:2], p[0:1]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>)

// The emitted buffers: the four input polynomials at their offsets, the
// mod_up scratch (2 limbs of q[0:2]) and the ModDown scratch (2 limbs: the
// P limb of each of the two parts).
// CHECK: const BufferSpec kBuffers[
// CHECK-NEXT: {0, 2, 0, 0, 1, 0, 0, [[A0]]}, {0, 2, 0, 0, 1, 0, 0, [[A1]]}, {0, 2, 0, 0, 1, 0, 0, [[A2]]}, {0, 2, 0, 0, 1, 0, 0, [[A3]]},
// CHECK: {0, 2, 0, 1, 1, 0, 0, [[U0]]}, {0, 2, 0, 1, 1, 0, 0, [[U1]]}, {0, 2, 0, 0, 0, 0, 0, [[US]]},
// CHECK: {0, 2, 0, 0, 0, 0, 0, [[DS]]},
// CHECK: {StepKind::kModUp, {{[0-9]+}}, 2, {{[0-9]+}}, 1, {0, 0, 0, 0}, {{.*}}, {{[0-9]+}}}, // mod_up [arena @[[U0]], [[U1]]]
// CHECK: {StepKind::kModSwitchDown, {{[0-9]+}}, 2, {{[0-9]+}}, 2, {{.*}}, {{[0-9]+}}}, // mod_switch_down [arena @[[D0]], [[D1]]]
// CHECK: const Plan<CudaKernel> kPlan{{.*}}, kInputNames, kPlainNames, [[ARENA]], 0, 0};
func.func @mul_rot(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %m by 1 : !fhe.ct<8>
  %s = fhe.add %m, %r : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %h = fhe.constant dense<[0.5, 0.25, 0.0, 1.0, 0.5, 0.25, 0.0, 1.0]> : tensor<8xf64> -> !fhe.pt<8>
  %c = fhe.add %s, %h : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %c : !fhe.ct<8>
}
