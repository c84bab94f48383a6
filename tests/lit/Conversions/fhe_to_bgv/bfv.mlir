// fhe-to-bgv scheme=bfv: the program of lowering.mlir in BFV. The chain is
// two 60-bit primes marked `scheme = bfv` (OpenFHE's BFV bound for depth 2
// at t = 65537, N = 2^13); every value stays at the top level with factor
// 1 (no modulus switch, no factor adjustment); a vector that multiplies is
// encoded unscaled (m), one that is subtracted scaled (Delta m); splats are
// mul_int / add_int. Deeper programs get more primes (the noise fixed
// point), and a program too deep for every N is an error naming BFV.
// RUN: ember-opt --fhe-to-bgv=scheme=bfv %s | FileCheck %s
// RUN: ember-opt --fhe-to-bgv="scheme=bfv print=true" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not ember-opt --fhe-to-bgv="scheme=bfv log-n=13" %S/Inputs/depth6.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not ember-opt --fhe-to-bgv=scheme=bgx %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEME

// CHECK: module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>}
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[A:.*]]: !bgv.ct<8, level = 1, factor = 1> {ember.name = "a"}, %[[B:.*]]: !bgv.ct<8, level = 1, factor = 1> {ember.name = "b"})
// CHECK-SAME: -> (!bgv.ct<8, level = 1, factor = 1> {bgv.noise_budget = [[BUDGET:[0-9]+]] : i64})
// CHECK-NOT: bgv.mod_switch
// CHECK-NOT: bgv.adjust_factor
// CHECK: %[[M:.*]] = bgv.mul %[[A]], %[[B]] : <8, level = 1, factor = 1>, <8, level = 1, factor = 1> -> <8, level = 1, factor = 1, degree = 3>
// CHECK: %[[R:.*]] = bgv.relinearize %[[M]]
// CHECK: %[[SUM:.*]] = bgv.add %[[R]], %[[A]]
// CHECK: %[[K:.*]] = bgv.mul_int %[[SUM]], 3
// CHECK: %[[V:.*]] = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> <8, level = 1, factor = 1>
// CHECK: %[[W:.*]] = bgv.mul_plain %[[K]], %[[V]]
// CHECK: %[[ROT:.*]] = bgv.rotate %[[W]], 1
// CHECK: %[[C:.*]] = bgv.add_int %[[ROT]], -5
// CHECK: %[[V0:.*]] = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> <8, level = 1, factor = 1, scaled>
// CHECK: %[[O:.*]] = bgv.sub_plain %[[C]], %[[V0]]
// CHECK: return %[[O]]

// PRINT: remark: BFV parameters: N = 2^13, t = 65537, depth 2, 2 Q primes, 1 P primes, dnum 2, log QP 181
// PRINT: remark: output 0: level 1, factor 1, noise budget {{[0-9]+}} bits (estimated, worst case)

// DEEP: error: no 128-bit BFV parameters for depth 6, t = 65537 and 8 slots: depth 6 needs log QP {{[0-9]+}} at N = 2^13, above the 128-bit bound 218

// SCHEME: error: fhe-to-bgv: scheme must be bgv or bfv, got 'bgx'
func.func @f(%a: !fhe.ct<8> {ember.name = "a"}, %b: !fhe.ct<8> {ember.name = "b"}) -> !fhe.ct<8> {
  %c3 = fhe.constant dense<3.0> : tensor<8xf64> -> !fhe.pt<8>
  %c5 = fhe.constant dense<65532.0> : tensor<8xf64> -> !fhe.pt<8>
  %v = fhe.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf64> -> !fhe.pt<8>
  %m = fhe.mul %a, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %s = fhe.add %m, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %k = fhe.mul %s, %c3 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %w = fhe.mul %k, %v : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %r = fhe.rotate %w by 1 : !fhe.ct<8>
  %c = fhe.add %r, %c5 : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %o = fhe.sub %c, %v : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
