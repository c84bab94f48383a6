// fhe-to-bgv: depth 2 (a product, then a plaintext vector product), 8
// slots, t = 65537: N = 2^13; q_0 then two level primes = 1 (mod 2N t), so
// every modulus switch keeps the factor at 1 (no operand ever rescaled).
// A product is relinearized and switched where it is needed; a small
// integer multiplies without a level; a
// splat adds as an integer, a vector as an encoded plaintext of the
// ciphertext's factor.
// RUN: ember-opt --fhe-to-bgv %s | FileCheck %s
// RUN: ember-opt --fhe-to-bgv=print=true %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: ember-opt --fhe-to-bgv=lazy-switch=false %s | FileCheck %s --check-prefix=EAGER

// CHECK: module attributes {ckks.params = #ckks.params<logN = 13, Q = [4398046150657, 1100602163201, 1127446118401], P = [2305843009213317121], logScale = 40, dnum = 3, security = 128, plain = 65537>}
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[A:.*]]: !bgv.ct<8, level = 2, factor = 1> {ember.name = "a"}, %[[B:.*]]: !bgv.ct<8, level = 2, factor = 1> {ember.name = "b"})
// CHECK-SAME: -> (!bgv.ct<8, level = 0, factor = 1> {bgv.noise_budget = [[BUDGET:[0-9]+]] : i64})
// CHECK: %[[M:.*]] = bgv.mul %[[A]], %[[B]] : <8, level = 2, factor = 1>, <8, level = 2, factor = 1> -> <8, level = 2, factor = 1, degree = 3>
// CHECK: %[[R:.*]] = bgv.relinearize %[[M]]
// Lazy switching: the product and the fresh operand are added at level 2,
// times 3 (no level), and the sum switched once, before the next product.
// CHECK: %[[SUM:.*]] = bgv.add %[[R]], %[[A]]
// CHECK: %[[K:.*]] = bgv.mul_int %[[SUM]], 3
// CHECK: %[[K1:.*]] = bgv.mod_switch %[[K]] : <8, level = 2, factor = 1> -> <8, level = 1, factor = 1>
// CHECK: %[[V:.*]] = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> <8, level = 1, factor = 1>
// CHECK: %[[W:.*]] = bgv.mul_plain %[[K1]], %[[V]]
// CHECK: %[[W0:.*]] = bgv.mod_switch %[[W]] : <8, level = 1, factor = 1> -> <8, level = 0, factor = 1>
// CHECK: %[[ROT:.*]] = bgv.rotate %[[W0]], 1
// CHECK: %[[C:.*]] = bgv.add_int %[[ROT]], -5
// CHECK: %[[V0:.*]] = bgv.encode dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi64> -> <8, level = 0, factor = 1>
// CHECK: %[[O:.*]] = bgv.sub_plain %[[C]], %[[V0]]
// CHECK: return %[[O]]

// Eager switching (lazy-switch=false): right after each product, the fresh
// operand switched down to meet it.
// EAGER: %[[R:.*]] = bgv.relinearize
// EAGER-NEXT: %[[S:.*]] = bgv.mod_switch %[[R]] : <8, level = 2, factor = 1> -> <8, level = 1, factor = 1>
// EAGER-NEXT: %[[A1:.*]] = bgv.mod_switch %arg0 : <8, level = 2, factor = 1> -> <8, level = 1, factor = 1>
// EAGER-NEXT: bgv.add %[[S]], %[[A1]]

// PRINT: remark: BGV parameters: N = 2^13, t = 65537, depth 2, 3 Q primes, 1 P primes, dnum 3, log QP 184
// PRINT: remark: output 0: level 0, factor 1, noise budget {{[0-9]+}} bits (estimated, worst case)
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
