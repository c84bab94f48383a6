// Encrypted x plain mixes: add_plain / sub_plain / mul_plain with the
// ciphertext first; plain - encrypted becomes neg(sub_plain).
// RUN: ember-opt --fhe-to-ckks %s | FileCheck %s

// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<4, level = 1, scale = 1099511627776.0>)
func.func @mixed(%x: !fhe.ct<4>) -> !fhe.ct<4> {
  %c = fhe.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64> -> !fhe.pt<4>
  // CHECK: %[[C1:.*]] = ckks.encode dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf64> -> !ckks.pt<4, level = 1, scale = 1099511627776.0>
  // CHECK-NEXT: %[[A:.*]] = ckks.add_plain %[[X]], %[[C1]]
  %a = fhe.add %c, %x : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: %[[S:.*]] = ckks.sub_plain %[[A]], %{{.*}}
  %s = fhe.sub %a, %c : (!fhe.ct<4>, !fhe.pt<4>) -> !fhe.ct<4>
  // CHECK: %[[T:.*]] = ckks.sub_plain %[[S]], %{{.*}}
  // CHECK-NEXT: %[[N:.*]] = ckks.neg %[[T]]
  %t = fhe.sub %c, %s : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK: %[[M:.*]] = ckks.mul_plain %[[N]], %{{.*}}
  // CHECK-NEXT: %[[R:.*]] = ckks.rescale %[[M]]
  %m = fhe.mul %c, %t : (!fhe.pt<4>, !fhe.ct<4>) -> !fhe.ct<4>
  // CHECK-NEXT: return %[[R]] : !ckks.ct<4, level = 0, scale = 1099511775231.0198>
  return %m : !fhe.ct<4>
}
