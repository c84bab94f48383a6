// RUN: ember-opt --ckks-to-rns %s | FileCheck %s
// Elementwise ckks ops: one rns op per polynomial; a ciphertext of degree d
// becomes d values of !rns.poly<ntt, q[0:level+1]> (signatures included).

!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0, degree = 3>
!ctsq = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0>
!pt = !ckks.pt<8, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {

// CHECK-LABEL: func.func @add_sub_neg
// CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:5]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5]>, %[[B0:.*]]: !rns.poly<ntt, q[0:5]>, %[[B1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK-SAME: -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>)
// CHECK: %[[S0:.*]] = rns.add %[[A0]], %[[B0]]
// CHECK: %[[S1:.*]] = rns.add %[[A1]], %[[B1]]
// CHECK: %[[D0:.*]] = rns.sub %[[S0]], %[[B0]]
// CHECK: %[[D1:.*]] = rns.sub %[[S1]], %[[B1]]
// CHECK: %[[N0:.*]] = rns.neg %[[D0]]
// CHECK: %[[N1:.*]] = rns.neg %[[D1]]
// CHECK: return %[[N0]], %[[N1]]
func.func @add_sub_neg(%a: !ct, %b: !ct) -> !ct {
  %0 = ckks.add %a, %b : !ct, !ct
  %1 = ckks.sub %0, %b : !ct, !ct
  %2 = ckks.neg %1 : !ct
  return %2 : !ct
}

// Tensor product: (a0 b0, a0 b1 + a1 b0, a1 b1).
// CHECK-LABEL: func.func @mul
// CHECK-SAME: (%[[A0:.*]]: !rns.poly<ntt, q[0:5]>, %[[A1:.*]]: !rns.poly<ntt, q[0:5]>, %[[B0:.*]]: !rns.poly<ntt, q[0:5]>, %[[B1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK-SAME: -> (!rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]>)
// CHECK-DAG: %[[D0:.*]] = rns.mul %[[A0]], %[[B0]]
// CHECK-DAG: %[[X:.*]] = rns.mul %[[A0]], %[[B1]]
// CHECK-DAG: %[[Y:.*]] = rns.mul %[[A1]], %[[B0]]
// CHECK-DAG: %[[D2:.*]] = rns.mul %[[A1]], %[[B1]]
// CHECK-DAG: %[[D1:.*]] = rns.add %[[X]], %[[Y]]
// CHECK: return %[[D0]], %[[D1]], %[[D2]]
func.func @mul(%a: !ct, %b: !ct) -> !ct3 {
  %0 = ckks.mul %a, %b : !ct, !ct
  return %0 : !ct3
}

// Adding a degree-2 to a degree-3 ciphertext passes d2 through; subtracting
// negates it.
// CHECK-LABEL: func.func @mixed_degree
// CHECK-SAME: %[[C2:[^:]*]]: !rns.poly<ntt, q[0:5]>) -> (
// CHECK: rns.add
// CHECK: rns.add
// CHECK-NOT: rns.add
// CHECK: rns.sub
// CHECK: rns.sub
// CHECK: %[[NEG:.*]] = rns.neg %[[C2]]
// CHECK: return %{{.*}}, %{{.*}}, %[[C2]], %{{.*}}, %{{.*}}, %[[NEG]]
func.func @mixed_degree(%a: !ctsq, %c: !ct3) -> (!ct3, !ct3) {
  %0 = ckks.add %a, %c : !ctsq, !ct3
  %1 = ckks.sub %a, %c : !ctsq, !ct3
  return %0, %1 : !ct3, !ct3
}

// Plaintext operands are one polynomial; ckks.encode becomes rns.encode.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK: %[[P:.*]] = rns.encode dense<[5.000000e-01, 1.000000e+00, {{.*}}]> : tensor<8xf64>, 0x4270000000000000 : !rns.poly<ntt, q[0:5]>
// CHECK: %[[S0:.*]] = rns.add %[[C0]], %[[P]]
// CHECK: %[[T0:.*]] = rns.sub %[[S0]], %[[P]]
// CHECK: %[[M0:.*]] = rns.mul %[[T0]], %[[P]]
// CHECK: %[[M1:.*]] = rns.mul %[[C1]], %[[P]]
// CHECK: return %[[M0]], %[[M1]]
func.func @plain(%c: !ct) -> !ctsq {
  %p = ckks.encode dense<[0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf64> -> !pt
  %0 = ckks.add_plain %c, %p : !ct, !pt
  %1 = ckks.sub_plain %0, %p : !ct, !pt
  %2 = ckks.mul_plain %1, %p : !ct, !pt
  return %2 : !ctsq
}

// One constant in every slot (a splat): its encoding is the constant
// polynomial round(0.5 * 2^40) = 2^39, so adding it adds that integer to c0
// (in NTT form, to every point) and multiplying multiplies every
// polynomial by it; no encoded polynomial is made.
// CHECK-LABEL: func.func @splat
// CHECK-SAME: (%[[C0:.*]]: !rns.poly<ntt, q[0:5]>, %[[C1:.*]]: !rns.poly<ntt, q[0:5]>)
// CHECK-NOT: rns.encode
// CHECK: %[[S0:.*]] = rns.add_const %[[C0]], 549755813888 : !rns.poly<ntt, q[0:5]>
// CHECK: %[[T0:.*]] = rns.add_const %[[S0]], -549755813888 : !rns.poly<ntt, q[0:5]>
// CHECK: %[[M0:.*]] = rns.mul_const %[[T0]], 549755813888 : !rns.poly<ntt, q[0:5]>
// CHECK: %[[M1:.*]] = rns.mul_const %[[C1]], 549755813888 : !rns.poly<ntt, q[0:5]>
// CHECK: return %[[M0]], %[[M1]]
func.func @splat(%c: !ct) -> !ctsq {
  %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt
  %0 = ckks.add_plain %c, %p : !ct, !pt
  %1 = ckks.sub_plain %0, %p : !ct, !pt
  %2 = ckks.mul_plain %1, %p : !ct, !pt
  return %2 : !ctsq
}

// A splat at a scale of 2^80 (added to an unrescaled product) needs more
// than 64 bits: round(-3 * 2^80).
// CHECK-LABEL: func.func @wide_splat
// CHECK: rns.add_const %{{.*}}, -3626777458843887524118528 : !rns.poly<ntt, q[0:5]>
func.func @wide_splat(%c: !ctsq) -> !ctsq {
  %p = ckks.encode dense<-3.0> : tensor<8xf64> -> !ckks.pt<8, level = 4, scale = 1208925819614629174706176.0>
  %0 = ckks.add_plain %c, %p : !ctsq, !ckks.pt<8, level = 4, scale = 1208925819614629174706176.0>
  return %0 : !ctsq
}

// Rescale is one op over all polynomials; mod_drop keeps a prefix of Q.
// CHECK-LABEL: func.func @levels
// CHECK-SAME: -> (!rns.poly<ntt, q[0:2]>, !rns.poly<ntt, q[0:2]>)
// CHECK: %[[R:.*]]:2 = rns.rescale %arg0, %arg1 : !rns.poly<ntt, q[0:5]>, !rns.poly<ntt, q[0:5]> -> !rns.poly<ntt, q[0:4]>, !rns.poly<ntt, q[0:4]>
// CHECK: %[[D0:.*]] = rns.drop_limbs %[[R]]#0 : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:2]>
// CHECK: %[[D1:.*]] = rns.drop_limbs %[[R]]#1 : !rns.poly<ntt, q[0:4]> -> !rns.poly<ntt, q[0:2]>
// CHECK: return %[[D0]], %[[D1]]
func.func @levels(%c: !ctsq) -> !ckks.ct<8, level = 1, scale = 1099516739606.7656> {
  %0 = ckks.rescale %c : !ctsq -> !ckks.ct<8, level = 3, scale = 1099516739606.7656>
  %1 = ckks.mod_drop %0 : !ckks.ct<8, level = 3, scale = 1099516739606.7656> -> !ckks.ct<8, level = 1, scale = 1099516739606.7656>
  return %1 : !ckks.ct<8, level = 1, scale = 1099516739606.7656>
}

// mul_int: one rns.mul_const per polynomial, no level change.
// CHECK-LABEL: func.func @mul_int
// CHECK-COUNT-3: rns.mul_const %{{.*}}, -3 : !rns.poly<ntt, q[0:5]>
func.func @mul_int(%c: !ct3) -> !ct3 {
  %0 = ckks.mul_int %c, -3 : !ct3
  return %0 : !ct3
}

// Degree 3 (between mul and a lazy relinearize) flows through neg and
// mod_drop polynomial by polynomial (a rescale needs degree 2).
// CHECK-LABEL: func.func @degree3
// CHECK-SAME: -> (!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3]>)
// CHECK-COUNT-3: rns.neg
// CHECK-COUNT-3: rns.drop_limbs
func.func @degree3(%c: !ct3) -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3> {
  %0 = ckks.neg %c : !ct3
  %1 = ckks.mod_drop %0 : !ct3 -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
  return %1 : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
}
}
