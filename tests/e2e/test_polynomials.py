"""Polynomials in the power and the Chebyshev basis (Paterson-Stockmeyer, as
a user writes them: tests/e2e/polys.py) compile at their minimal depth
ceil(log2(d + 1)) and match numpy within 2^-18 relative on fresh inputs
(issue 12: level and scale management across levels, relinearization before
rescaling)."""

from __future__ import annotations

import math

import ember
import numpy as np
import pytest
from numpy.polynomial import chebyshev as cheb
from numpy.polynomial import polynomial as poly
from polys import chebyshev_ps, power_ps

SLOTS = 256
DEGREES = (16, 27, 59)


def _chebyshev(d):
    """The degree-d Chebyshev interpolant of tanh(3x) on [-1, 1]."""
    return cheb.chebinterpolate(lambda t: np.tanh(3 * t), d)


def _power(d):
    """Random coefficients that decay like 1/(k+1) (|p| <= H_(d+1) on
    [-1, 1]), fixed per degree so the programs are cached."""
    return np.random.default_rng(d).uniform(-1, 1, d + 1) / np.arange(1, d + 2)


CASES = {
    "power": (power_ps, _power, poly.polyval),
    "chebyshev": (chebyshev_ps, _chebyshev, cheb.chebval),
}


def _program(basis: str, d: int):
    evaluate, coefficients, _ = CASES[basis]
    c = coefficients(d)

    @ember.program(slots=SLOTS)
    def p(x):
        return evaluate(x, c)

    p.name = f"{basis}{d}"
    return p, c


@pytest.mark.parametrize("d", DEGREES)
@pytest.mark.parametrize("basis", sorted(CASES))
def test_polynomial_compiles_at_its_depth_and_matches(build_dir, rng, basis, d):
    prog, c = _program(basis, d)
    compiled = ember.compile(prog)
    depth = len(compiled.manifest["params"]["q"]) - 1
    assert depth == math.ceil(math.log2(d + 1)), compiled.manifest["params"]
    x = rng.uniform(-1, 1, SLOTS)
    want = CASES[basis][2](x, c)
    got = compiled(x=x)
    assert np.array_equal(prog(x=x), prog(x=x))  # the plain run is the algorithm
    np.testing.assert_allclose(prog(x=x), want, rtol=0, atol=1e-12)
    err = np.max(np.abs(got - want)) / np.max(np.abs(want))
    # CKKS at a 2^40 scale: each level adds ~2^-30 relative error; 2^-18
    # (the bound) leaves a margin of 2^8 over the measured 2^-26.
    assert err < 2**-18, f"{basis} degree {d}: relative error 2^{math.log2(err):.1f}"


def test_lazy_relinearization_keeps_the_precision(build_dir, rng):
    """Lazy relinearization relinearizes before every rescale (never rounding
    c2, whose error decrypts times s^2): on the degree-59 Chebyshev
    evaluation it is as precise as relinearizing eagerly (before: 1.3e-5
    against 8.7e-8)."""
    prog, c = _program("chebyshev", 59)
    x = rng.uniform(-1, 1, SLOTS)
    want = cheb.chebval(x, c)
    errs = {}
    for lazy in (True, False):
        got = ember.compile(prog, lazy_relin=lazy)(x=x)
        errs[lazy] = np.max(np.abs(got - want))
    # Both measured at 1e-7 (2^-23); the same algorithm in OpenFHE: 4e-8.
    assert errs[True] < 2**-20 and errs[False] < 2**-20, errs
    assert errs[True] < 4 * errs[False], errs


def test_products_made_from_different_levels_add_up(build_dir, rng):
    """The smallest program that failed ('operands have scales ... at level
    0; no level left to match them'): x^2 * x and x^2 * x^2 are made at the
    same level from operands of different levels."""

    @ember.program(slots=SLOTS)
    def cube_plus_fourth(x):
        x2 = x * x
        return x2 * x + x2 * x2

    compiled = ember.compile(cube_plus_fourth)
    assert len(compiled.manifest["params"]["q"]) - 1 == 2  # its depth, no more
    x = rng.uniform(-1, 1, SLOTS)
    np.testing.assert_allclose(compiled(x=x), x**3 + x**4, rtol=0, atol=2**-20)
