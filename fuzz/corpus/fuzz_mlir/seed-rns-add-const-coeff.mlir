func.func @coeff(%c: !rns.poly<coeff, q[0:2]>) -> !rns.poly<coeff, q[0:2]> {
  %0 = rns.add_const %c, 5 : !rns.poly<coeff, q[0:2]>
  return %0 : !rns.poly<coeff, q[0:2]>
}
