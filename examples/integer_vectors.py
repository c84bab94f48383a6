"""Exact arithmetic on vectors of integers modulo t (scheme="bgv"): a
weighted sum of 1024 encrypted readings with an integer weight matrix
(ember.matvec), their total (ember.sum) and the squared deviation of each
reading from an offset, all modulo 65537. Compare with numpy:

    ember run examples/integer_vectors.py [--target cuda]
"""

import ember
import numpy as np

T = 65537
SLOTS = 1024
WEIGHTS = np.random.default_rng(7).integers(-3, 4, (SLOTS, SLOTS))


@ember.program(slots=SLOTS, scheme="bgv", plaintext_modulus=T)
def integer_vectors(x, offset: ember.Plain):
    d = x - offset
    return ember.matvec(WEIGHTS, x), ember.sum(x), d * d
