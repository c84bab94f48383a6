
// expected-error @+1 {{dnum = 2 is outside 1..1}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 2, security = 0>} {}

