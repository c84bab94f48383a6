"""A dense layer y = W x + b (64 x 64) on an encrypted vector, by the
diagonal method (Halevi-Shoup) with baby-step giant-step rotations:

    W x = sum_j rot( sum_i diag'_{8j+i} * rot(x, i), 8j ),
    diag'_k = np.roll(diag_k, 8j),  diag_k[t] = W[t, (t + k) mod 64]

8 baby-step rotations of x (hoisted by the compiler: one ModUp) and 7
giant steps, so 14 Galois keys instead of 63; depth 1.

    ember run examples/dense_layer.py
"""

import ember
import numpy as np

N = 64  # the layer's size = the slot count
BABY = 8  # baby steps; N / BABY giant steps
_rng = np.random.default_rng(2024)
W = _rng.normal(0, 1 / np.sqrt(N), (N, N))
B = _rng.normal(0, 0.1, N)


def diagonal(k: int) -> np.ndarray:
    """The k-th generalized diagonal of W: diag_k[t] = W[t, (t + k) mod N]."""
    t = np.arange(N)
    return W[t, (t + k) % N]


@ember.program(slots=N)
def dense(x):
    """y = W x + B."""
    baby = [x.rotate(i) for i in range(BABY)]
    y = B
    for j in range(0, N, BABY):
        inner = sum(np.roll(diagonal(j + i), j) * baby[i] for i in range(BABY))
        y = inner.rotate(j) + y
    return y
