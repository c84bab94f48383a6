
// A key group holds at most the |P u Q| = 2 primes.
// expected-error @+1 {{gamma = 3 exceeds the 2 primes of P u Q that a key group can hold}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [12289], P = [40961], logScale = 10, dnum = 1, security = 0, T = [1038337], gamma = 3>} {}
