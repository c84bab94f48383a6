"""Mean and variance of an encrypted vector of 4096 values, with ember.sum
(every slot gets the total, by 12 rotations). Depth 3.

    ember run examples/variance.py
"""

import ember

SLOTS = 4096


@ember.program(slots=SLOTS)
def variance(x):
    """(mean, variance) of the slots of x, in every slot."""
    mean = ember.sum(x) * (1 / SLOTS)
    d = x - mean
    return mean, ember.sum(d * d) * (1 / SLOTS)
