
// expected-error @+1 {{security must be 128 or 0 (insecure test mode), got 80}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 80>} {}

