!ct = !ckks.ct<8, level = 2, scale = 1099511627776.0>
!ct3 = !ckks.ct<8, level = 2, scale = 1.2089258196146292e+24, degree = 3>
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
  func.func @mul_int(%x: !ct, %y: !ct) -> (!ct, !ct3) {
    %0 = ckks.mul_int %x, 2 : !ct
    %1 = ckks.mul_int %0, -3 : !ct
    %2 = ckks.mul_int %1, -9223372036854775808 : !ct
    %3 = ckks.mul %2, %y : !ct, !ct
    %4 = ckks.mul_int %3, 1 : !ct3
    %5 = "ckks.mul_int"(%4) <{value = 0 : i64}> : (!ct3) -> !ct3
    return %2, %5 : !ct, !ct3
  }
}
