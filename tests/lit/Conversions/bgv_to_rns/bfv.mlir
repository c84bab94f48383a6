// bgv-to-rns under a BFV chain: mul is rns.bfv_tensor (no rns.mul tensor);
// relinearize is the same hybrid key switch; a scaled plaintext is encoded
// at Delta = Q / t (2^104.0 here), an unscaled one at 1; add_int c adds the
// Delta-scaled encoding of the splat c (ceil(Q [c]_t / t) differs per
// prime: no rns.add_const).
// The product is BEHZ's by default, HPS's with bfv-mult=hps.
// RUN: ember-opt --bgv-to-rns %s | FileCheck %s
// RUN: ember-opt "--bgv-to-rns=bfv-mult=hps" %s | FileCheck %s --check-prefix=HPS
// RUN: not ember-opt "--bgv-to-rns=bfv-mult=fv" %s 2>&1 | FileCheck %s --check-prefix=BAD

// HPS: rns.bfv_tensor %arg0, %arg1, %arg0, %arg1 : !rns.poly<ntt, q[0:2]>
// BAD: error: bgv-to-rns: bfv-mult must be behz or hps, got 'fv'

module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673], P = [2305843009213317121], logScale = 60, dnum = 2, security = 128, plain = 65537, scheme = bfv>} {
  // CHECK-LABEL: func.func @f
  // CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:2]>, %[[A1:.*]]: !rns.poly<ntt, q[0:2]>)
  func.func @f(%a: !bgv.ct<8, level = 1, factor = 1>) -> !bgv.ct<8, level = 1, factor = 1> {
    // CHECK-NOT: rns.mul %
    // CHECK: %[[D0:.*]], %[[D1:.*]], %[[D2:.*]] = rns.bfv_tensor %[[A0]], %[[A1]], %[[A0]], %[[A1]] {behz} : !rns.poly<ntt, q[0:2]>
    %m = bgv.mul %a, %a : !bgv.ct<8, level = 1, factor = 1>, !bgv.ct<8, level = 1, factor = 1> -> !bgv.ct<8, level = 1, factor = 1, degree = 3>
    // CHECK: rns.decompose %[[D2]]
    // CHECK: %[[MD:.*]]:2 = rns.mod_down
    // CHECK: %[[R0:.*]] = rns.add %[[D0]], %[[MD]]#0
    // CHECK: %[[R1:.*]] = rns.add %[[D1]], %[[MD]]#1
    %r = bgv.relinearize %m : !bgv.ct<8, level = 1, factor = 1, degree = 3>
    // CHECK: %[[C:.*]] = rns.encode dense<-5.000000e+00> : tensor<8xf64>, 2.0282100123362193E+31 : !rns.poly<ntt, q[0:2]>
    // CHECK: %[[S0:.*]] = rns.add %[[R0]], %[[C]]
    %ai = bgv.add_int %r, -5 : !bgv.ct<8, level = 1, factor = 1>
    // CHECK: %[[M:.*]] = rns.encode dense<{{.*}}> : tensor<8xf64>, 1.000000e+00 : !rns.poly<ntt, q[0:2]>
    %pm = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 1, factor = 1>
    // CHECK: %[[P0:.*]] = rns.mul %[[S0]], %[[M]]
    // CHECK: %[[P1:.*]] = rns.mul %[[R1]], %[[M]]
    %mp = bgv.mul_plain %ai, %pm : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1> -> !bgv.ct<8, level = 1, factor = 1>
    // CHECK: %[[D:.*]] = rns.encode dense<{{.*}}> : tensor<8xf64>, 2.0282100123362193E+31 : !rns.poly<ntt, q[0:2]>
    %pd = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 1, factor = 1, scaled>
    // CHECK: %[[O:.*]] = rns.sub %[[P0]], %[[D]]
    // CHECK: return %[[O]], %[[P1]]
    %o = bgv.sub_plain %mp, %pd : !bgv.ct<8, level = 1, factor = 1>, !bgv.pt<8, level = 1, factor = 1, scaled>
    return %o : !bgv.ct<8, level = 1, factor = 1>
  }
}
