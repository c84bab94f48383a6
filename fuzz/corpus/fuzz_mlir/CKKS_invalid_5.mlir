
// 12290 is not 1 mod 2N.
// expected-error @+1 {{12290 is not an NTT prime (prime, = 1 mod 2048)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12290], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

