
// expected-error @+1 {{prime 12289 appears more than once in Q and P}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289, 12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

