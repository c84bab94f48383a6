module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @consts(%x: !rns.poly<ntt, q[0:3]>, %y: !rns.poly<ntt, q[0:3], p[0:1]>) -> (!rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3], p[0:1]>) {
    %0 = rns.mul_const %x, 1208925819614629174706176 : !rns.poly<ntt, q[0:3]>
    %1 = rns.add_const %0, -3626777458843887524118528 : !rns.poly<ntt, q[0:3]>
    %2 = rns.mul_const %1, -9223372036854775808 : !rns.poly<ntt, q[0:3]>
    %3 = rns.add_const %2, 18446744073709551615 : !rns.poly<ntt, q[0:3]>
    %4 = rns.mul_const %3, 1 : !rns.poly<ntt, q[0:3]>
    %5 = rns.add_const %4, 0 : !rns.poly<ntt, q[0:3]>
    %6 = rns.mul_const %y, -1 : !rns.poly<ntt, q[0:3], p[0:1]>
    %7 = rns.add_const %6, 549755813888 : !rns.poly<ntt, q[0:3], p[0:1]>
    return %5, %7 : !rns.poly<ntt, q[0:3]>, !rns.poly<ntt, q[0:3], p[0:1]>
  }
}
