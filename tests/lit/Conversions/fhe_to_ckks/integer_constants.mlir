// A multiplication by an integer-valued scalar constant is ckks.mul_int: no
// encoding, no rescale, no level. T_2(x) = 2 x^2 - 1 has depth 1 (one Q
// prime above q_0), 0.5 * x^2 has depth 2.
// RUN: ember-opt --fhe-to-ckks --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @chebyshev_t2
// CHECK-SAME: (%[[X:.*]]: !ckks.ct<8, level = 1, scale = 1099511627776.0>)
// CHECK: %[[M:.*]] = ckks.mul %[[X]], %[[X]]
// CHECK: %[[R:.*]] = ckks.rescale
// CHECK-NEXT: %[[T:.*]] = ckks.mul_int %[[R]], 2 : !ckks.ct<8, level = 0, scale = 1099511775231.0198>
// CHECK-NEXT: %[[ONE:.*]] = ckks.encode dense<1.000000e+00> : tensor<8xf64> -> !ckks.pt<8, level = 0, scale = 1099511775231.0198>
// CHECK-NEXT: ckks.sub_plain %[[T]], %[[ONE]]
module {
  func.func @chebyshev_t2(%x: !fhe.ct<8>) -> !fhe.ct<8> {
    %two = fhe.constant dense<2.0> : tensor<8xf64> -> !fhe.pt<8>
    %one = fhe.constant dense<1.0> : tensor<8xf64> -> !fhe.pt<8>
    %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %t = fhe.mul %two, %x2 : (!fhe.pt<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %r = fhe.sub %t, %one : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
    return %r : !fhe.ct<8>
  }
}

// -----

// RUN: ember-opt --fhe-to-ckks --split-input-file %s | FileCheck %s --check-prefix=HALF
// HALF-LABEL: func.func @half
// HALF-SAME: (%{{.*}}: !ckks.ct<8, level = 2,
// HALF: ckks.mul_plain
// HALF-NOT: ckks.mul_int
module {
  func.func @half(%x: !fhe.ct<8>) -> !fhe.ct<8> {
    %h = fhe.constant dense<0.5> : tensor<8xf64> -> !fhe.pt<8>
    %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %t = fhe.mul %x2, %h : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
    return %t : !fhe.ct<8>
  }
}

// -----

// A multiplication by i or -i (a complex splat) is ckks.mul_i (negated for
// -i): no encoding, no level, so x * x * (-i) needs one Q prime above q_0.
// RUN: ember-opt --fhe-to-ckks --split-input-file %s | FileCheck %s --check-prefix=UNIT
// UNIT-LABEL: func.func @minus_i
// UNIT-SAME: (%{{.*}}: !ckks.ct<8, level = 1,
// UNIT: %[[R:.*]] = ckks.rescale
// UNIT-NEXT: %[[I:.*]] = ckks.mul_i %[[R]] :
// UNIT-NEXT: %[[N:.*]] = ckks.neg %[[I]] :
// UNIT-NEXT: %[[J:.*]] = ckks.mul_i %[[N]] :
// UNIT-NEXT: return %[[J]]
// UNIT-NOT: ckks.mul_plain
module {
  func.func @minus_i(%x: !fhe.ct<8>) -> !fhe.ct<8> {
    %mi = fhe.constant dense<(0.0, -1.0)> : tensor<8xcomplex<f64>> -> !fhe.pt<8>
    %i = fhe.constant dense<(0.0, 1.0)> : tensor<8xcomplex<f64>> -> !fhe.pt<8>
    %x2 = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
    %t = fhe.mul %x2, %mi : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
    %u = fhe.mul %i, %t : (!fhe.pt<8>, !fhe.ct<8>) -> !fhe.ct<8>
    return %u : !fhe.ct<8>
  }
}
