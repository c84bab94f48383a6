"""Exact arithmetic on encrypted integers (scheme="tfhe"): the larger of two
8-bit unsigned integers, their wrapping sum and whether the first is
smaller, computed by circuits of bootstrapped gates (OpenFHE's STD128
set). Compare with Python's integers:

    ember run examples/integer_compare.py [--target cuda]
"""

import ember


@ember.program(scheme="tfhe")
def compare(x: ember.UInt(8), y: ember.UInt(8)):
    lt = x < y
    # max(x, y) without a branch: x + ((y - x) AND mask), mask = 255 where
    # x < y, else 0 (a table over the encrypted bit: no gate, its bits are
    # lt itself).
    mask = ember.lut([0, 255], out=ember.UInt(8))(lt)
    larger = x + ((y - x) & mask)
    return larger, x + y, lt
