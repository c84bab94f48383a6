"""Thirty steps of a fixed-point iteration on 1024 encrypted values,
bootstrapped where the compiler decides (``bootstrap="auto"``):

    y <- (y^2 + x) / 2,   y_0 = x,

which converges to 1 - sqrt(1 - x) for x in [0, 1/2]. A step takes two
levels (the square, the halving), the iteration sixty: no 128-bit chain
holds that, so the compiler places bootstraps between steps. 1024 slots
are fewer than N/2 (32768 at N = 2^16): each bootstrap uses sparse packing
(one EvalMod over both parts' coefficients, smaller transforms, and more
precision than at full slots).

    ember run examples/fixed_point.py --bootstrap auto

1024 slots alone would fit N = 2^11; the compiler picks N = 2^16, the
smallest ring whose 128-bit chains hold bootstrapping (4 bootstraps, 12
levels apart; about 2^-24 worst error against numpy; 30 s on two CPU
cores).

The iteration contracts (its derivative y stays below 1/2), so the error
each bootstrap adds is damped by the steps after it: the output keeps
about the precision of one bootstrap.
"""

import ember
import numpy as np

SLOTS = 1024
STEPS = 30


def iteration(slots: int, steps: int = STEPS) -> ember.Program:
    """The iteration over `slots` values (the example uses 1024 at
    N = 2^16; the tests 8, at N = 2^13 in the insecure test mode)."""

    @ember.program(slots=slots)
    def fixed_point(x):
        """x in [0, 1/2]: the iterate after `steps` steps."""
        y = x
        for _ in range(steps):
            y = (y * y + x) * 0.5  # two levels a step
        return y

    return fixed_point


def reference(x: np.ndarray, steps: int = STEPS) -> np.ndarray:
    """The same iteration in numpy."""
    y = x.copy()
    for _ in range(steps):
        y = (y * y + x) * 0.5
    return y


def inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Where the iteration contracts."""
    return {"x": rng.uniform(0, 0.5, SLOTS)}


fixed_point = iteration(SLOTS)
