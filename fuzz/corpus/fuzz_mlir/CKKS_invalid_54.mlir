
// One 40-bit digit over a 14-bit P: the runtime refuses it.
// expected-error @+1 {{P has 13 bits, fewer than key-switching digit 0 (40 bits): add P primes or raise dnum}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [549755860993], P = [12289], logScale = 10, dnum = 1, security = 0>} {}

