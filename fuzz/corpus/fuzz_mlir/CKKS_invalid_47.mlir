
// expected-error @+1 {{T prime 12289 is not distinct from the other Q, P and T primes}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [12289, 2305843009213683713], gamma = 1>} {}

