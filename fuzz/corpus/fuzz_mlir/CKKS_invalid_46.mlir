
// KLSS form: T and gamma come together.
// expected-error @+1 {{a KLSS form needs both T (temporary primes, given) and gamma (missing)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [2305843009213683713]>} {}

