// BFV in the bgv dialect: a chain marked `scheme = bfv` and plaintexts of
// both forms (scaled: Delta m, added; unscaled: m, multiplied) print and
// parse back; rns.bfv_tensor (BFV's product) round-trips too.
// RUN: ember-opt %s | ember-opt | FileCheck %s

// CHECK: plain = 65537, scheme = bfv>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  // CHECK-LABEL: func.func @f
  func.func @f(%a: !bgv.ct<8, level = 1, factor = 1>) -> !bgv.ct<8, level = 1, factor = 1> {
    // CHECK: %[[S:.*]] = bgv.encode dense<{{.*}}> : tensor<8xi64> -> <8, level = 1, factor = 1, scaled>
    %s = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 1, factor = 1, scaled>
    // CHECK: %[[M:.*]] = bgv.encode dense<{{.*}}> : tensor<8xi64> -> <8, level = 1, factor = 1>
    %m = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 1, factor = 1>
    // CHECK: bgv.add_plain %{{.*}}, %[[S]] : <8, level = 1, factor = 1>, <8, level = 1, factor = 1, scaled>
    %0 = bgv.add_plain %a, %s : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1, scaled>
    // CHECK: bgv.mul_plain %{{.*}}, %[[M]]
    %1 = bgv.mul_plain %0, %m : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1> -> !bgv.ct<8, level = 1, factor = 1>
    return %1 : !bgv.ct<8, level = 1, factor = 1>
  }
  // CHECK-LABEL: func.func @tensor
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = rns.bfv_tensor %arg0, %arg1, %arg0, %arg1 : !rns.poly<ntt, q[0:2]>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = rns.bfv_tensor %arg0, %arg1, %arg0, %arg1 {behz} : !rns.poly<ntt, q[0:2]>
  func.func @tensor(%a0: !rns.poly<ntt, q[0:2]>, %a1: !rns.poly<ntt, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>) {
    %d0, %d1, %d2 = rns.bfv_tensor %a0, %a1, %a0, %a1 : !rns.poly<ntt, q[0:2]>
    %e0, %e1, %e2 = rns.bfv_tensor %a0, %a1, %a0, %a1 {behz} : !rns.poly<ntt, q[0:2]>
    return %e0, %e1, %e2 : !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>
  }
}
