"""A dense layer with a tanh activation, y = tanh(W x + b) (64 x 64), on an
encrypted vector, with the compiler's own operations:

- ember.matvec(W, x): W's 64 diagonals by baby-step giant-step (the
  compiler picks 8 x 8: 14 Galois keys, one level);
- ember.approx(np.tanh, ..., interval=(-4, 4), degree=27): the Chebyshev
  interpolant of tanh on [-4, 4] (its maximum error, about 3e-5, is in
  the compiled program's ``approximations``), evaluated by
  Paterson-Stockmeyer in ceil(log2 28) = 5 levels plus one for the change
  of variable x / 4.

    ember run examples/tanh_layer.py
"""

import ember
import numpy as np

N = 64
DEGREE = 27
INTERVAL = (-4.0, 4.0)
_rng = np.random.default_rng(2026)
W = _rng.normal(0, 1 / np.sqrt(N), (N, N))
B = _rng.normal(0, 0.1, N)


@ember.program(slots=N)
def tanh_layer(x):
    """tanh(W x + B) for x in [-1, 1] (|W x + B| stays well inside [-4, 4])."""
    return ember.approx(
        np.tanh, ember.matvec(W, x) + B, interval=INTERVAL, degree=DEGREE
    )
