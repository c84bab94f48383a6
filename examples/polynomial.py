"""A polynomial of degree 15 on an encrypted vector, by the tree method:
p = p_low + x^8 * p_high, recursively, so the depth is log2(16) = 4 (one
level for the scalar coefficients, three for x^2, x^4, x^8) instead of 15
for Horner's rule. The polynomial is the Chebyshev interpolant of
sigmoid(6x) on [-1, 1] (max error 2e-4), in the power basis.

    ember run examples/polynomial.py
"""

import ember
import numpy as np
from numpy.polynomial import Chebyshev, Polynomial

DEGREE = 15
COEFFS = Chebyshev.interpolate(lambda t: 1 / (1 + np.exp(-6 * t)), DEGREE)
COEFFS = COEFFS.convert(kind=Polynomial).coef
COEFFS[np.abs(COEFFS) < 1e-9] = 0.0  # the even terms vanish up to rounding


def tree(x, coeffs, powers):
    """sum_k coeffs[k] x^k for len(coeffs) a power of two; powers[m] = x^m."""
    if len(coeffs) == 2:
        c0, c1 = coeffs
        return c1 * x + c0 if c1 else c0
    half = len(coeffs) // 2
    return (
        tree(x, coeffs[:half], powers) + tree(x, coeffs[half:], powers) * powers[half]
    )


@ember.program(slots=4096)
def polynomial(x):
    """p(x) for every slot (x in [-1, 1])."""
    powers = {1: x}
    m = 1
    while 2 * m <= DEGREE:
        powers[2 * m] = powers[m] * powers[m]
        m *= 2
    return tree(x, COEFFS, powers)
