
// expected-error @+1 {{logN = 9 is outside 10..17}}
module attributes {ckks.params = #ckks.params<logN = 9, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

