"""A 20-layer polynomial network on 32768 encrypted values, bootstrapped
where the compiler decides (``bootstrap="auto"``).

Each layer mixes every value with its right neighbour and applies a cubic
activation:

    y <- act(a * y + b * roll(y, -1) + c),   act(t) = 1.5 t - 0.5 t^3

with plain per-slot weights a, b, c (64 channels: slot i has channel
i mod 64's; |a| + |b| + |c| <= 0.9, so t and y stay in [-1, 1]). A layer
takes three levels (the weights one, the cubic two: ember.poly in the
power basis, ceil(log2 4)), the network sixty: no 128-bit chain holds
that, so the compiler places bootstraps between layers
(a shortest path over the program's points, priced by its cost model; the
cost report lists them) and picks the levels between bootstraps.

    ember run examples/poly_net.py --bootstrap auto

The network is a contraction (the activation's slope is at most 1.5 and
|a| + |b| <= 0.6), so the error each bootstrap adds is damped, not
amplified, by the layers after it: the output keeps about the precision of
one bootstrap.
"""

import ember
import numpy as np

LAYERS = 20
SLOTS = 32768
ACTIVATION = (0.0, 1.5, 0.0, -0.5)  # power basis: 1.5 t - 0.5 t^3


CHANNELS = 64  # weights repeat every 64 slots (slot i is channel i % 64)


def weights(slots: int, layers: int = LAYERS, seed: int = 2026):
    """Per layer (a, b, c): |a|, |b| <= 0.3 and |c| <= 0.3 in every slot,
    one value per channel."""
    rng = np.random.default_rng(seed)
    return [
        tuple(
            np.tile(rng.uniform(-0.3, 0.3, CHANNELS), slots // CHANNELS)
            for _ in range(3)
        )
        for _ in range(layers)
    ]


def network(slots: int, layers: int = LAYERS) -> ember.Program:
    """The network over `slots` values (the example uses 32768, N = 2^16;
    the tests 4096, N = 2^13 in the insecure test mode)."""
    w = weights(slots, layers)

    @ember.program(slots=slots)
    def poly_net(x):
        """x in [-1, 1]: the network's output, in [-1, 1]."""
        y = x
        for a, b, c in w:
            y = ember.poly(a * y + b * y.rotate(1) + c, ACTIVATION, basis="power")
        return y

    return poly_net


def reference(x: np.ndarray, layers: int = LAYERS) -> np.ndarray:
    """The same network in numpy."""
    y = x
    for a, b, c in weights(len(x), layers):
        t = a * y + b * np.roll(y, -1) + c
        y = 1.5 * t - 0.5 * t**3
    return y


poly_net = network(SLOTS)
