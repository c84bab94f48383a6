"""ember.approx of the usual activation and division functions (issue 14):
sigmoid on [-8, 8], tanh on [-4, 4], exp on [-1, 1] and 1/x on [1, 8] and
[1, 1024], at degrees up to 119, compiled at 128-bit security and run
encrypted on fresh inputs against numpy.

The intervals are the ones the libraries' own examples use: Lattigo's
polynomial-evaluation example interpolates sigmoid on [-8, 8] (63 nodes,
with the same change of variable and rescale before the polynomial);
OpenFHE's EvalLogistic unit test takes [-4, 4], here for tanh (sigmoid(x) =
(1 + tanh(x / 2)) / 2: sigmoid on [-8, 8] is tanh on [-4, 4], and their
errors must be in ratio 1/2); exp on [-1, 1] is the textbook case; 1/x on
[1, 8] converges fast (its pole 0 is far from the interval), and [1, 1024]
is OpenFHE's EvalDivide unit test (degree 129 there), where 1/x converges
slowly and the degree-119 error is still 1e-3.

What is checked, and why the bounds hold:

1. The ``max_error`` that ember reports (``compiled.approximations``) is
   the error of the polynomial it compiles: recomputed in 80-bit long
   double (an independent Clenshaw sum and reference function) on ember's
   grid and on a 10x finer one. The polynomial is the Chebyshev interpolant
   at the first-kind points (an independent long-double DCT) up to float64
   rounding of numpy's Chebyshev.interpolate: it evaluates T_k at nodes
   rounded to float64, and |T_k'| <= k^2 on [-1, 1], so its coefficients
   are off by up to (n + 1)^2 u max|f| (u = 2^-53, the "float floor").
   At degree 119 that rounding is the whole error (2^-42 for sigmoid, tanh
   and 1/x; the exact interpolant is within 1e-17 of them).
2. Chebyshev theory bounds that error for every degree n. With a_k the
   Chebyshev coefficients of f (a 2^14-point DCT): any degree-n polynomial
   has error >= |a_k| / 2 for each k > n (orthogonality), and the
   first-kind interpolant has error <= 2 sum_{k>n} |a_k| (each a_k, k > n,
   aliases onto one coefficient of degree <= n). And a priori, from the
   functions' analytic structure: Bernstein's bound 4 M rho^-n / (rho - 1) for
   sigmoid and tanh (analytic in the ellipse E_rho, |f| <= M there; their
   poles +-i pi/8 (in [-1, 1] coordinates) limit rho to 1.467); the
   interpolation remainder, between e^-1 and e times 1 / (2^n (n+1)!), for
   exp; the exact series of 1/x, whose coefficients are C rho^-k. The
   errors decay geometrically at exactly the rate of the nearest
   singularity (checked to 5% in log) until they reach the float floor.
3. The encrypted result is within max_error plus the CKKS error of the
   program's parameters (N, scale; see _ckks_bound) of f, and within that
   CKKS error of the polynomial itself; the depth is ceil(log2(n + 1)),
   plus one when the change of variable 2 / (hi - lo) is not an integer
   (polynomials.py). Degree 119 fits the 128-bit bound (N = 2^15, 8
   levels), so every program uses the default security.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import ember
import numpy as np
import pytest
from frontend_helpers import line_of
from numpy.polynomial import chebyshev as cheb

HERE = __file__
SLOTS = 4096
U = 2.0**-53  # float64 unit roundoff
LD = np.longdouble  # 80-bit extended on x86-64: 64-bit mantissa
GRID = 20001  # ember's grid (polynomials._GRID)
FINE = 200001  # ten times finer: ember's points are every tenth one


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _rho(t0: complex) -> float:
    """Bernstein parameter of the ellipse through t0 (foci -1, 1)."""
    t0 = complex(t0)
    return abs(t0 + np.sqrt(t0 - 1) * np.sqrt(t0 + 1))


@dataclass(frozen=True)
class Case:
    key: str
    fn: Callable
    lo: float
    hi: float
    degrees: tuple[int, ...]
    rho: float  # ellipse of the nearest singularity (inf: entire)
    bound_119: float  # the degree-119 error, stated (see CASES)


# The nearest singularities, in t = (2x - lo - hi) / (hi - lo): sigmoid's
# poles x = +-i pi and tanh's x = +-i pi / 2 are both t = +-i pi / 8; 1/x's
# pole 0 is t = -(hi + lo) / (hi - lo); exp has none.
#
# Degree-119 bounds: the analytic error (Bernstein for sigmoid and tanh:
# 6e-18 and 1.1e-17 at rho = 1.45; exp: e / (2^119 120!) = 6e-235; 1/x on
# [1, 8]: 2 C rho^-119 / (rho - 1) = 8e-39) is far below the float floor
# (n + 1)^2 u max|f| = 1.6e-12 (4.3e-12 for exp, max e); on [1, 1024] the
# series of 1/x gives 2 C rho^-119 / (rho - 1) = 1.138e-3.
CASES = {
    c.key: c
    for c in (
        Case("sigmoid", sigmoid, -8, 8, (7, 31, 59, 119), _rho(1j * np.pi / 8), 2e-12),
        Case("tanh", np.tanh, -4, 4, (7, 31, 59, 119), _rho(1j * np.pi / 8), 2e-12),
        Case("exp", np.exp, -1, 1, (7, 31, 59, 119), math.inf, 5e-12),
        Case(
            "reciprocal_8", np.reciprocal, 1, 8, (7, 31, 59, 119), _rho(-9 / 7), 2e-12
        ),
        Case(
            "reciprocal_1024",
            np.reciprocal,
            1,
            1024,
            (59, 119),
            _rho(-1025 / 1023),
            1.2e-3,
        ),
    )
}
PAIRS = [(k, d) for k, c in CASES.items() for d in c.degrees]


@cache
def _program(key: str, d: int) -> ember.Program:
    case = CASES[key]

    @ember.program(slots=SLOTS, ranges={"x": (case.lo, case.hi)})
    def approx(x):
        return ember.approx(case.fn, x, interval=(case.lo, case.hi), degree=d)

    approx.name = f"approx_{key}_{d}"
    return approx


def _record(compiled, key: str, d: int) -> dict:
    (rec,) = compiled(_program(key, d)).approximations
    return rec


@cache
def _fit(key: str, d: int) -> tuple[np.ndarray, float]:
    case = CASES[key]
    return ember.chebyshev_fit(case.fn, (case.lo, case.hi), d)


def _fmax(case: Case) -> float:
    return float(np.max(np.abs(case.fn(np.linspace(case.lo, case.hi, GRID)))))


def _floor(case: Case, n: int) -> float:
    """float64 rounding of numpy's interpolant (module docstring, 1.)."""
    return (n + 1) ** 2 * U * _fmax(case)


def _to_t(case: Case, x: np.ndarray) -> np.ndarray:
    lo, hi = LD(case.lo), LD(case.hi)
    return (2 * np.asarray(x, dtype=LD) - lo - hi) / (hi - lo)


def _clenshaw(c: np.ndarray, t: np.ndarray) -> np.ndarray:
    """sum c_k T_k(t), in the precision of t (long double here)."""
    b1, b2 = np.zeros_like(t), np.zeros_like(t)
    for ck in c[:0:-1]:
        b1, b2 = 2 * t * b1 - b2 + ck, b1
    return t * b1 - b2 + c[0]


def _exact_interpolant(case: Case, n: int) -> np.ndarray:
    """The first-kind Chebyshev interpolant's coefficients, by the DCT in
    long double with angles reduced exactly (integers mod 4(n + 1))."""
    pi = LD(np.pi) + LD(1.2246467991473532e-16)  # pi to long double
    j, k = np.arange(n + 1), np.arange(n + 1)
    nodes = np.cos((2 * j + 1).astype(LD) * pi / (2 * (n + 1)))
    x = (LD(case.lo) + LD(case.hi)) / 2 + (LD(case.hi) - LD(case.lo)) / 2 * nodes
    angles = (np.outer(k, 2 * j + 1) % (4 * (n + 1))).astype(LD)
    c = np.cos(angles * pi / (2 * (n + 1))) @ case.fn(x) * 2 / (n + 1)
    c[0] /= 2
    return c


@cache
def _series(key: str, m: int = 1 << 14) -> np.ndarray:
    """f's Chebyshev coefficients a_0..a_(m-1) (DCT of m first-kind points,
    by FFT; aliasing is rho^-2m, nothing)."""
    case = CASES[key]
    theta = np.pi * (np.arange(m) + 0.5) / m
    v = case.fn((case.lo + case.hi) / 2 + (case.hi - case.lo) / 2 * np.cos(theta))
    y = np.fft.fft(np.concatenate([v, v[::-1]]))[:m]
    a = np.real(np.exp(-0.5j * np.pi * np.arange(m) / m) * y) / m
    a[0] /= 2
    return a


def _analytic_bound(case: Case, n: int) -> float:
    """An a priori bound on the interpolation error of degree n."""
    if case.key == "exp":  # |f^(n+1)| <= e, |omega| = |T_(n+1)| / 2^n <= 2^-n
        return math.e / (2**n * math.factorial(n + 1))
    if case.fn is np.reciprocal:
        # 1/x = (2 / (hi - lo)) / (a + t), a = (hi + lo) / (hi - lo), and
        # 1/(a + t) = (2 / sqrt(a^2 - 1)) sum' (-1/rho)^k T_k(t): |a_k| =
        # C rho^-k; the interpolant is within 2 sum_{k>n} |a_k| of f.
        a = (case.hi + case.lo) / (case.hi - case.lo)
        c = 4 / ((case.hi - case.lo) * math.sqrt(a * a - 1))
        return 2 * c * case.rho**-n / (case.rho - 1)
    # Bernstein (Trefethen, ATAP Thm 8.2, which holds for the first-kind
    # points by the same aliasing argument): 4 M rho^-n / (rho - 1) for any
    # rho < case.rho, M = max |f| on E_rho (on its boundary; sampled).
    theta = np.linspace(0, 2 * np.pi, 1 << 16, endpoint=False)
    best = math.inf
    for r in (1.2, 1.3, 1.4, 1.45):
        assert r < case.rho
        z = (r * np.exp(1j * theta) + np.exp(-1j * theta) / r) / 2
        m = np.max(
            np.abs(case.fn((case.lo + case.hi) / 2 + (case.hi - case.lo) / 2 * z))
        )
        best = min(best, 4 * m * r**-n / (r - 1))
    return best


@pytest.mark.parametrize(("key", "d"), PAIRS)
def test_reported_error_is_the_compiled_polynomials(compiled, key, d):
    case = CASES[key]
    prog = _program(key, d)
    c = compiled(prog)
    rec = _record(compiled, key, d)
    assert (rec["function"], rec["interval"], rec["degree"]) == (
        case.fn.__name__,
        [float(case.lo), float(case.hi)],
        d,
    )
    assert (rec["file"], rec["line"]) == (HERE, line_of(prog.fn, "ember.approx"))
    assert c.manifest["params"]["security"] == 128  # the default, even at 119
    scale_costs = (2 / (case.hi - case.lo)) % 1 != 0
    depth = len(c.manifest["params"]["q"]) - 1
    assert depth == math.ceil(math.log2(d + 1)) + scale_costs

    coef, err = _fit(key, d)
    assert err == rec["max_error"]
    n, floor, sum_c = d, _floor(case, d), float(np.sum(np.abs(coef)))
    # The compiled polynomial is the first-kind interpolant, up to the floor.
    dc = float(np.sum(np.abs(coef.astype(LD) - _exact_interpolant(case, n))))
    assert dc <= floor, f"coefficients off by {dc:.3g} (floor {floor:.3g})"

    # max_error recomputed in long double on ember's grid: the two differ by
    # float64 rounding only: Clenshaw (<= 4 (n+1) u sum|c|), the change of
    # variable (u |t| times |p'| <= max|p'|) and f itself.
    slope = float(
        np.max(np.abs(cheb.chebval(np.linspace(-1, 1, GRID), cheb.chebder(coef))))
    )
    tol = U * (4 * (n + 1) * sum_c + 2 * slope + 4 * _fmax(case))
    p = coef.astype(LD)
    grid = np.linspace(case.lo, case.hi, GRID)
    on_grid = float(
        np.max(np.abs(case.fn(grid.astype(LD)) - _clenshaw(p, _to_t(case, grid))))
    )
    assert abs(on_grid - err) <= tol, (on_grid, err, tol)
    # Between the grid's points: the error curve has n + 1 extrema; a grid
    # point lies within half a spacing of each, which loses < 3% of it.
    fine = np.linspace(case.lo, case.hi, FINE)
    true = float(
        np.max(np.abs(case.fn(fine.astype(LD)) - _clenshaw(p, _to_t(case, fine))))
    )
    assert err - tol <= true <= 1.03 * err + tol, (true, err)

    # Chebyshev theory (module docstring, 2.), with f's own coefficients.
    a = np.abs(_series(key)[n + 1 :])
    assert np.max(a) / 2 <= true + tol, f"below the best approximation: {true}"
    assert true <= 2 * np.sum(a) + dc + tol, f"above 2 sum|a_k|: {true}"


@pytest.mark.parametrize("key", sorted(CASES))
def test_error_decays_at_the_predicted_rate(compiled, key):
    case = CASES[key]
    errs = {d: _record(compiled, key, d)["max_error"] for d in case.degrees}
    floors = {d: _floor(case, d) for d in case.degrees}
    print(key, {d: f"2^{math.log2(e):.1f}" for d, e in errs.items()})
    for d, e in errs.items():
        assert e <= _analytic_bound(case, d) + floors[d], (d, e)
    assert errs[119] <= case.bound_119
    above = [d for d in case.degrees if errs[d] > 100 * floors[d]]
    assert len(above) >= 1
    for d1, d2 in zip(case.degrees, case.degrees[1:], strict=False):
        assert errs[d2] < errs[d1] or errs[d2] <= floors[d2], (d1, d2)
    if math.isfinite(case.rho):
        # A pole on E_rho: |a_k| ~ C rho^-k, the error decays like rho^-n.
        assert len(above) >= 2
        for d1, d2 in zip(above, above[1:], strict=False):
            rate = math.log(errs[d1] / errs[d2]) / (d2 - d1)
            assert abs(rate / math.log(case.rho) - 1) < 0.05, (d1, d2, rate)
    else:
        # exp: e^xi omega(x) / (n+1)!, with omega(1) = 2^-n: between e^-1
        # and e times 1 / (2^n (n+1)!).
        for d in above:
            scaled = errs[d] * 2**d * math.factorial(d + 1)
            assert math.exp(-1) <= scaled <= math.e, (d, scaled)


def test_sigmoid_is_half_tanh(compiled):
    """sigmoid(8t) = (1 + tanh(4t)) / 2: the interpolants on [-8, 8] and
    [-4, 4] are related the same way, their errors exactly half."""
    for d in CASES["sigmoid"].degrees:
        s = _record(compiled, "sigmoid", d)["max_error"]
        t = _record(compiled, "tanh", d)["max_error"]
        floor = _floor(CASES["sigmoid"], d) + _floor(CASES["tanh"], d)
        assert abs(s - t / 2) <= 1e-6 * s + floor, (d, s, t)


def _ckks_bound(c: ember.Compiled, coef: np.ndarray, case: Case) -> float:
    """The CKKS error of the program at its parameters (a noise model).

    In units of nu = N / scale (2^-26 at N = 2^14 and scale 2^40, 2^-25 at
    N = 2^15): a fresh public-key encryption v pk + (m + e0, e1) decrypts
    with error v e + e0 + s e1, v and s uniform ternary (variance 2/3), e
    Gaussian (sigma 3.2): each coefficient has variance (4/3) N sigma^2,
    and the real part of a slot (a sum over N coefficients) standard
    deviation sqrt(2/3) sigma N / scale = 2.61 nu (measured on x + x:
    2.60 nu). Each rescale rounds c0 and c1 (uniform, variance 1/12; c1
    times s): N / (6 scale) = nu / 6. The output carries x's error times
    |p'| in x's units (L_x), the change of variable's rescale times |p'| in
    t's units (L_t), and one rescale per level in values that the rest of
    the evaluation multiplies by at most 2 sum|c_k| (|T_k| <= 1 on the
    interval; the factor 2 of T_(a+b) = 2 T_a T_b - T_(a-b)).

    The bound is 20 of these standard deviations: in the canonical
    embedding v e and s e1 are slotwise products of Gaussians, whose real
    parts are Laplace-distributed, P(|err| > k sd) ~ exp(-sqrt(2) k): the
    maxima over 8192 slots reach 6 sd (x + x), and 20 sd is exceeded with
    probability 5e-13 per slot. The bounds are 2^-20 to 2^-18 here (2^-14
    for 1/x on [1, 1024], whose L_t = 511 multiplies the change of
    variable's rounding); the measured maxima over 4096 slots, 2^-24.5 to
    2^-20.5, are 12 to 80 times below them."""
    p = c.manifest["params"]
    nu = 2.0 ** p["log_n"] / 2.0 ** p["log_scale"]
    depth = len(p["q"]) - 1
    slope_t = np.max(np.abs(cheb.chebval(np.linspace(-1, 1, GRID), cheb.chebder(coef))))
    slope_x = slope_t * 2 / (case.hi - case.lo)
    sd = nu * (2.61 * slope_x + (slope_t + 2 * depth * np.sum(np.abs(coef))) / 6)
    return float(20 * sd)


@pytest.mark.parametrize(("key", "d"), PAIRS)
def test_encrypted_matches_numpy(compiled, rng, key, d):
    case = CASES[key]
    prog = _program(key, d)
    c = compiled(prog)
    rec = _record(compiled, key, d)
    coef, _ = _fit(key, d)
    bound = _ckks_bound(c, coef, case)
    x = rng.uniform(case.lo, case.hi, SLOTS)
    got = c(x=x)
    polynomial = prog(x=x)  # the plain run: numpy's chebval of coef
    t = (2 * x - case.lo - case.hi) / (case.hi - case.lo)  # as polynomials.py
    np.testing.assert_array_equal(polynomial, cheb.chebval(t, coef))
    ckks = float(np.max(np.abs(got - polynomial)))
    total = float(np.max(np.abs(got - case.fn(x))))
    print(
        f"{key} degree {d}: max_error 2^{math.log2(rec['max_error']):.1f}, "
        f"CKKS 2^{math.log2(ckks):.1f} (bound 2^{math.log2(bound):.1f}), "
        f"encrypted vs f 2^{math.log2(total):.1f}"
    )
    assert ckks <= bound, f"CKKS error {ckks:.3g} above {bound:.3g}"
    assert total <= rec["max_error"] + bound
