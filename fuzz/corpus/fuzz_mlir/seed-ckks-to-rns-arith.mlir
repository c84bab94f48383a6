
!ct = !ckks.ct<8, level = 4, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0, degree = 3>
!ctsq = !ckks.ct<8, level = 4, scale = 1208925819614629174706176.0>
!pt = !ckks.pt<8, level = 4, scale = 1099511627776.0>

module attributes {ckks.params = #ckks.params<logN = 14, Q = [1099504549889, 1099510054913, 1099508121601, 1099507695617, 1099506515969, 1099506352129, 1099505827841], P = [1152921504606748673, 1152921504606683137], logScale = 40, dnum = 3, security = 128>} {

func.func @add_sub_neg(%a: !ct, %b: !ct) -> !ct {
  %0 = ckks.add %a, %b : !ct, !ct
  %1 = ckks.sub %0, %b : !ct, !ct
  %2 = ckks.neg %1 : !ct
  return %2 : !ct
}

func.func @mul(%a: !ct, %b: !ct) -> !ct3 {
  %0 = ckks.mul %a, %b : !ct, !ct
  return %0 : !ct3
}

func.func @mixed_degree(%a: !ctsq, %c: !ct3) -> (!ct3, !ct3) {
  %0 = ckks.add %a, %c : !ctsq, !ct3
  %1 = ckks.sub %a, %c : !ctsq, !ct3
  return %0, %1 : !ct3, !ct3
}

func.func @plain(%c: !ct) -> !ctsq {
  %p = ckks.encode dense<[0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf64> -> !pt
  %0 = ckks.add_plain %c, %p : !ct, !pt
  %1 = ckks.sub_plain %0, %p : !ct, !pt
  %2 = ckks.mul_plain %1, %p : !ct, !pt
  return %2 : !ctsq
}

func.func @splat(%c: !ct) -> !ctsq {
  %p = ckks.encode dense<0.5> : tensor<8xf64> -> !pt
  %0 = ckks.add_plain %c, %p : !ct, !pt
  %1 = ckks.sub_plain %0, %p : !ct, !pt
  %2 = ckks.mul_plain %1, %p : !ct, !pt
  return %2 : !ctsq
}

func.func @wide_splat(%c: !ctsq) -> !ctsq {
  %p = ckks.encode dense<-3.0> : tensor<8xf64> -> !ckks.pt<8, level = 4, scale = 1208925819614629174706176.0>
  %0 = ckks.add_plain %c, %p : !ctsq, !ckks.pt<8, level = 4, scale = 1208925819614629174706176.0>
  return %0 : !ctsq
}

func.func @levels(%c: !ctsq) -> !ckks.ct<8, level = 1, scale = 1099516739606.7656> {
  %0 = ckks.rescale %c : !ctsq -> !ckks.ct<8, level = 3, scale = 1099516739606.7656>
  %1 = ckks.mod_drop %0 : !ckks.ct<8, level = 3, scale = 1099516739606.7656> -> !ckks.ct<8, level = 1, scale = 1099516739606.7656>
  return %1 : !ckks.ct<8, level = 1, scale = 1099516739606.7656>
}

func.func @mul_int(%c: !ct3) -> !ct3 {
  %0 = ckks.mul_int %c, -3 : !ct3
  return %0 : !ct3
}

func.func @degree3(%c: !ct3) -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3> {
  %0 = ckks.neg %c : !ct3
  %1 = ckks.mod_drop %0 : !ct3 -> !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
  return %1 : !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
}
}
