"""Exact integer polynomials in BFV (scheme="bfv"): x^8 + 3 x^5 - x and a
weighted sum of squares, modulo 65537, over 4096 encrypted integers. BFV
never switches the modulus, so a deep product chain costs noise, not
levels: the compiler gives it a few 60-bit primes at N = 2^14
(c.noise_budgets says how many bits are left). Compare with numpy:

    ember run examples/integer_powers.py [--target cuda]
"""

import ember

T = 65537


@ember.program(slots=4096, scheme="bfv", plaintext_modulus=T)
def integer_powers(x, y):
    x2 = x * x
    x4 = x2 * x2
    return x4 * x4 + 3 * x4 * x - x, ember.sum(x2 * y)
