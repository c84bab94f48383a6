
// Three 60-bit primes and a 60-bit P: 240 bits > 218 at N = 2^13.
// expected-error @+1 {{log2(QP) = 240 exceeds 218, the 128-bit security bound for N = 2^13}}
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1152921504606748673, 1152921504606683137], P = [1152921504606601217], logScale = 40, dnum = 1, security = 128>} {}

