"""Logistic-regression training on an encrypted batch: ten iterations of
gradient ascent over 4096 samples of 8 features (32768 slots), the sigmoid
by ``ember.approx``, bootstrapped where the compiler decides
(``bootstrap="auto"``).

Packing (Kim, Song, Kim, Lee, Cheon, "Logistic regression model training
based on the approximate homomorphic encryption", 2018): sample i's
z_i = y_i x_i (label y_i in {-1, 1}, x_i with a constant bias feature)
fills slots 8i..8i+7, and the weights w are repeated in every block of 8.
One iteration:

    s_i = z_i . w                 product, three rotations, a mask (1/8 at
                                  each block's head) and three rotations
                                  back: s_i / 8 in every slot of block i
    g_i = f(s_i / 8)              f(u) = (lr / n) sigmoid(-8 u), degree 15
                                  on [-1, 1]: lr / n and the 1/8 folded in
    w  <- w + sum_i g_i z_i       product and log2(4096) = 12 rotations

Seven levels per iteration (the products two, the mask one, the
polynomial four), seventy in all: the compiler bootstraps w every one or
two iterations, as its cost model picks the run between bootstraps (at
N = 2^16: 14 levels, 4 bootstraps; bench/RESULTS.md), and reports each.
Features are standardised, clipped to 3 standard deviations and divided
by 12, so |z| <= 1/4; w starts at 0 (declared in [-1, 1]); the range
analysis then bounds |s_i| by 2 max|w| <= 8, the interval of the
sigmoid's interpolant, and w by 8, what bootstrapping accepts.

    ember run examples/logistic_regression_training.py --bootstrap auto

Its 14-level run needs 14.2 GB of evaluation keys; on a machine of 24 GB
add `--key-memory-mib 8000`: the compiler then picks a run whose keys fit
(7 levels, 9 bootstraps, 5.6 GB of keys, 86 s on two cores).
"""

import ember
import numpy as np

FEATURES = 8  # including the bias
SLOTS = 32768
ITERATIONS = 10
RATE = 0.4
DEGREE = 15


def mask(slots: int) -> np.ndarray:
    """1/8 at each block's first slot, 0 elsewhere."""
    m = np.zeros(slots)
    m[::FEATURES] = 1.0 / FEATURES
    return m


def gradient_weight(samples: int):
    """f(u) = (RATE / n) sigmoid(-8 u): the per-sample weight of z_i."""
    return lambda u: (RATE / samples) / (1.0 + np.exp(FEATURES * u))


def trainer(slots: int, iterations: int = ITERATIONS) -> ember.Program:
    """The training program over `slots` slots (slots / 8 samples)."""
    samples = slots // FEATURES
    m = mask(slots)
    f = gradient_weight(samples)

    @ember.program(slots=slots, ranges={"z": (-0.25, 0.25)})
    def train(z, w):
        """z: the packed samples; w: the initial weights, repeated."""
        for _ in range(iterations):
            p = z * w
            for k in (1, 2, 4):  # block sums land in each block's head
                p = p + p.rotate(k)
            s = p * m
            for k in (1, 2, 4):  # and back over the block
                s = s + s.rotate(-k)
            g = ember.approx(f, s, interval=(-1.0, 1.0), degree=DEGREE) * z
            k = FEATURES
            while k < slots:  # sum over the samples
                g = g + g.rotate(k)
                k *= 2
            w = w + g
        return w

    return train


def data(slots: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Synthetic separable-ish data, packed: z and w = 0."""
    n = slots // FEATURES
    truth = rng.normal(0, 1, FEATURES)
    x = np.clip(rng.normal(0, 1, (n, FEATURES)), -3, 3)
    x[:, 0] = 3.0  # the bias feature (12 x 1/4)
    y = np.where(x @ truth + rng.normal(0, 0.5, n) >= 0, 1.0, -1.0)
    z = (y[:, None] * x / 12.0).reshape(-1)
    return {"z": z, "w": np.zeros(slots)}


def reference(z: np.ndarray, w: np.ndarray, iterations: int = ITERATIONS) -> np.ndarray:
    """The same iterations in numpy, with the same polynomial sigmoid."""
    slots = len(z)
    coeffs, _ = ember.chebyshev_fit(gradient_weight(slots // FEATURES), (-1, 1), DEGREE)
    zz = z.reshape(-1, FEATURES)
    ww = w[:FEATURES].copy()
    for _ in range(iterations):
        s = zz @ ww / FEATURES
        ww = ww + np.polynomial.chebyshev.chebval(s, coeffs) @ zz
    return np.tile(ww, slots // FEATURES)


def accuracy(z: np.ndarray, w: np.ndarray) -> float:
    """Share of samples with y_i x_i . w > 0."""
    return float(np.mean(z.reshape(-1, FEATURES) @ w[:FEATURES] > 0))


train = trainer(SLOTS)


def inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return data(SLOTS, rng)
