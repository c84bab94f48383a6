// Every bgv op round-trips, and the verifiers accept the factor arithmetic
// of a chain whose top prime is not 1 mod t: q_2 = 1099511480321 has
// q_2^-1 = 9543 (mod 65537), so switching factor 5 from level 2 gives
// 5 * 9543 mod 65537 = 47715.
// RUN: ember-opt %s | ember-opt | FileCheck %s

module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1099511480321], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>} {
  // CHECK: plain = 65537
  // CHECK-LABEL: func.func @ops
  func.func @ops(%a: !bgv.ct<8, level = 2, factor = 1>, %b: !bgv.ct<8, level = 2, factor = 5>) -> !bgv.ct<8, level = 1, factor = 47715> {
    // CHECK: bgv.mul %{{.*}}, %{{.*}} : <8, level = 2, factor = 1>, <8, level = 2, factor = 5> -> <8, level = 2, factor = 5, degree = 3>
    %m = bgv.mul %a, %b : !bgv.ct<8, level = 2, factor = 1>, !bgv.ct<8, level = 2, factor = 5> -> !bgv.ct<8, level = 2, factor = 5, degree = 3>
    // CHECK: bgv.relinearize
    %r = bgv.relinearize %m : !bgv.ct<8, level = 2, factor = 5, degree = 3>
    // CHECK: bgv.adjust_factor %{{.*}}, 5 : <8, level = 2, factor = 1> -> <8, level = 2, factor = 5>
    %a5 = bgv.adjust_factor %a, 5 : !bgv.ct<8, level = 2, factor = 1> -> !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.add
    %s = bgv.add %r, %a5 : !bgv.ct<8, level = 2, factor = 5>, !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.sub
    %d = bgv.sub %s, %b : !bgv.ct<8, level = 2, factor = 5>, !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> <8, level = 2, factor = 5>
    %p = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> !bgv.pt<8, level = 2, factor = 5>
    // CHECK: bgv.add_plain
    %ap = bgv.add_plain %d, %p : !bgv.ct<8, level = 2, factor = 5>, !bgv.pt<8, level = 2, factor = 5>
    // CHECK: bgv.sub_plain
    %sp = bgv.sub_plain %ap, %p : !bgv.ct<8, level = 2, factor = 5>, !bgv.pt<8, level = 2, factor = 5>
    %one = bgv.encode dense<-1> : tensor<8xi64> -> !bgv.pt<8, level = 2, factor = 1>
    // CHECK: bgv.mul_plain
    %mp = bgv.mul_plain %sp, %one : !bgv.ct<8, level = 2, factor = 5>, !bgv.pt<8, level = 2, factor = 1> -> !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.mul_int %{{.*}}, -3
    %mi = bgv.mul_int %mp, -3 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.add_int %{{.*}}, 7
    %ai = bgv.add_int %mi, 7 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.neg
    %n = bgv.neg %ai : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.rotate %{{.*}}, 3
    %rot = bgv.rotate %n, 3 : !bgv.ct<8, level = 2, factor = 5>
    // CHECK: bgv.mod_switch %{{.*}} : <8, level = 2, factor = 5> -> <8, level = 1, factor = 47715>
    %ms = bgv.mod_switch %rot : !bgv.ct<8, level = 2, factor = 5> -> !bgv.ct<8, level = 1, factor = 47715>
    return %ms : !bgv.ct<8, level = 1, factor = 47715>
  }
}
