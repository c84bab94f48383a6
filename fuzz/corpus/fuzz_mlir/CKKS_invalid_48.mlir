
// T of 20 bits cannot hold log2(1) + 10 + 13.6 (digit) + 28.9 (group) + 1.
// expected-error @+1 {{the KLSS temporary basis T has 20.0 bits (1 primes) but the exact products need 53.5 (log2 digits + logN + largest digit + largest key group of gamma = 2 primes + 1): add T primes or lower gamma}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [1038337], gamma = 2>} {}

