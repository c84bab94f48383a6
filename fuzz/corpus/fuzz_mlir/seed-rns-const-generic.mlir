func.func @generic(%x: !rns.poly<ntt, q[0:2]>, %c: !rns.poly<coeff, q[0:2]>) -> (!rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[0:2]>) {
  %0 = "rns.mul_const"(%x) <{value = 5 : i64}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  %1 = "rns.add_const"(%0) <{value = -1 : i65}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  %2 = "rns.mul_const"(%1) <{value = 340282366920938463463374607431768211455 : i129}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  %3 = "rns.add_const"(%2) <{value = 0 : i64}> : (!rns.poly<ntt, q[0:2]>) -> !rns.poly<ntt, q[0:2]>
  %4 = "rns.mul_const"(%c) <{value = 1 : i128}> : (!rns.poly<coeff, q[0:2]>) -> !rns.poly<coeff, q[0:2]>
  return %3, %4 : !rns.poly<ntt, q[0:2]>, !rns.poly<coeff, q[0:2]>
}
