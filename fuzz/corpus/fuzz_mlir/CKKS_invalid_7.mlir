
// expected-error @+1 {{logScale = 0 is outside 1..60}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 0, dnum = 1, security = 0>} {}

