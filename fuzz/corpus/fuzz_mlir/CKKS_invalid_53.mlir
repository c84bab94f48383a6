
// 2305843009213704193 = 1 mod 2048 is prime, but 62 bits.
// expected-error @+1 {{prime 2305843009213704193 has 62 bits, more than the runtime's 64-bit words hold (61)}}
module attributes {ckks.params = #ckks.params<logN = 10, Q = [2305843009213704193], P = [40961], logScale = 10, dnum = 1, security = 0>} {}

