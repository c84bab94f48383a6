"""x.bootstrap() (issue 14, CKKS bootstrapping as a compiler operation): the
compiler expands it into ModRaise, CoeffToSlot, EvalMod and SlotToCoeff with
the parameters it chose (a sparse secret of weight 192, a 2^50 scale), and
the program multiplies again after it. Run on the CPU runtime at N = 2^13 in
the named insecure test mode, on fresh random inputs, against numpy."""

from __future__ import annotations

import math

import ember
import numpy as np

SLOTS = 4096  # N / 2 at N = 2^13: bootstrapping packs full slots

# The measured error (about 2^-13 mean, 2^-10.3 worst over 4096 slots) is
# not EvalMod's approximation (2^-40) but the level manager's scale matching:
# sums of values whose scales agree only to the 1e-9 of scalesMatch (the
# 50-bit primes' spacing, about 2^-31 relative at N = 2^13) are off by that
# much, and EvalMod's K q_0 / S_0 (2^15) and SlotToCoeff's sums (sqrt(4096))
# amplify it to 2^-10..2^-12. MAX_ERR leaves one bit of margin over the
# worst slot; bench/RESULTS.md ("CKKS bootstrapping") has the figures.
MAX_ERR = 2**-9
MEAN_BITS = 12


def test_bootstrap_then_multiply(build_dir, rng):
    @ember.program(slots=SLOTS)
    def refresh(x):
        y = x * x
        return y.bootstrap() * x

    compiled = ember.compile(refresh, security="none", log_n=13)
    params = compiled.manifest["params"]
    assert params["hamming_weight"] == 192 and params["log_scale"] == 50
    fhe = compiled.ir("fhe")
    assert fhe.count("fhe.bootstrap") == 1
    x = rng.uniform(-1, 1, SLOTS)
    want = x * x * x
    np.testing.assert_array_equal(refresh(x=x), want)  # the plain run is numpy's
    err = np.abs(compiled(x=x) - want)
    bits = -np.log2(err)
    assert err.max() < MAX_ERR, f"worst slot 2^{math.log2(err.max()):.1f}"
    assert bits.mean() > MEAN_BITS, f"mean {bits.mean():.1f} bits"
