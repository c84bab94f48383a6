// Complex slot values and slot counts: a complex constant stays an encoded
// vector (only a real splat is a scalar integer), stored in the data file as
// (real, imaginary) pairs (kConstant's imm[3] = 1); fhe.tile of a 4-slot
// input to 16 slots is ckks.tile, which lowers to nothing; rotations of the
// 4-slot value stay 4-slot rotations (a lone rotation in hoisted form).
// RUN: ember-opt --ember-pipeline=fhe-to-rns --mlir-print-ir-after=ckks-hoist-rotations %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CKKS
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-cpp | FileCheck %s --check-prefix=CPP
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-data | od -A d -t f8 -j 16 -N 32 | FileCheck %s --check-prefix=DATA

// CKKS-DAG: %[[T:.*]] = ckks.tile %arg0 to 16 : !ckks.ct<4, level = 1, scale = 1099511627776.0>
// CKKS-DAG: ckks.encode dense<(5.000000e-01,-2.500000e-01)> : tensor<16xcomplex<f64>>
// CKKS: ckks.mul %[[T]], %arg1 : !ckks.ct<16, {{.*}}>, !ckks.ct<16,
// CKKS: ckks.hoisted_rotate %arg0 by [1] : !ckks.ct<4,

// CPP: {StepKind::kConstant, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 16, 1}
// The first values of the data file: 0.5, -0.25 (one complex slot).
// DATA: 0.5 -0.25
func.func @f(%a: !fhe.ct<4>, %b: !fhe.ct<16>) -> (!fhe.ct<16>, !fhe.ct<4>) {
  %t = fhe.tile %a : !fhe.ct<4> -> !fhe.ct<16>
  %c = fhe.constant dense<(0.5, -0.25)> : tensor<16xcomplex<f64>> -> !fhe.pt<16>
  %p = fhe.mul %t, %b : (!fhe.ct<16>, !fhe.ct<16>) -> !fhe.ct<16>
  %q = fhe.add %p, %c : (!fhe.ct<16>, !fhe.pt<16>) -> !fhe.ct<16>
  %r = fhe.rotate %a by 1 : !fhe.ct<4>
  return %q, %r : !fhe.ct<16>, !fhe.ct<4>
}
