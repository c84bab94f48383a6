"""A 784-128-128-10 multilayer perceptron with square activations on one
encrypted MNIST-sized input (CryptoNets-style), the diagonal method with
baby-step giant-step rotations for every layer.

The 784 inputs sit in the first slots of a 1024-slot vector. A layer with
m outputs and n = 1024 columns (m divides n) uses m generalized diagonals
(Halevi-Shoup; the "hybrid" method of GAZELLE for m < n):

    y'[t] = sum_i d_i[t] x[(t + i) mod n],   d_i[t] = W[t mod m, (t + i) mod n],

then log2(n / m) rotate-and-add steps fold the n / m blocks of y', so that
every block of m slots holds W x: the next layer reads its input replicated.
The diagonal products are grouped baby-step giant-step (rotations of x by
i < b hoisted, giant rotations by multiples of b). Depth 5: three layers and
two squares.

    ember run examples/mlp.py
"""

import ember
import numpy as np

SLOTS = 1024
SIZES = (784, 128, 128, 10)
_rng = np.random.default_rng(7)
WEIGHTS = [
    _rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in))
    for n_in, n_out in zip(SIZES[:-1], SIZES[1:], strict=True)
]
BIASES = [_rng.normal(0, 0.05, n_out) for n_out in SIZES[1:]]


def layer(x, w, b, rows, baby):
    """W x + b for w of shape (m, n), m <= rows, rows dividing SLOTS, read
    from x's first n slots; the result is replicated with period `rows`."""
    full = np.zeros((rows, SLOTS))
    full[: w.shape[0], : w.shape[1]] = w
    t = np.arange(SLOTS)
    baby_rot = [x.rotate(i) for i in range(baby)]
    y = None
    for j in range(0, rows, baby):
        inner = None
        for i in range(baby):
            # diagonal j + i, rolled so that the giant rotation by j
            # brings it back into place
            diag = np.roll(full[t % rows, (t + j + i) % SLOTS], j)
            if diag.any():
                term = diag * baby_rot[i]
                inner = term if inner is None else inner + term
        if inner is not None:
            inner = inner.rotate(j)
            y = inner if y is None else y + inner
    step = rows
    while step < SLOTS:  # fold the SLOTS / rows blocks of rows slots
        y = y + y.rotate(step)
        step *= 2
    return y + np.tile(np.pad(b, (0, rows - len(b))), SLOTS // rows)


# Pixels lie in [0, 1]. From that range the compiler bounds every layer
# (per slot: the sum of |w| x the input's bound, squared after the
# activation) at 2^21.2 in the worst case, and lowers the scale so that it
# fits the 60-bit first prime (2^36 rather than 2^40). Undeclared, x would
# be taken in [-1, 1], with a worst case of 2^25.0 and a 2^33 scale.
@ember.program(slots=SLOTS, ranges={"x": (0, 1)})
def mlp(x):
    """The network's 10 outputs in slots 0..9 (replicated every 16 slots)."""
    h = layer(x, WEIGHTS[0], BIASES[0], 128, 16)
    h = h * h
    h = layer(h, WEIGHTS[1], BIASES[1], 128, 16)
    h = h * h
    return layer(h, WEIGHTS[2], BIASES[2], 16, 4)


def inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A 28 x 28 image in [0, 1], zero-padded to 1024 slots."""
    x = np.zeros(SLOTS)
    x[:784] = rng.uniform(0, 1, 784)
    return {"x": x}
