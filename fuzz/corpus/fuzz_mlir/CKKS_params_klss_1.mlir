
// CHECK: #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {}
