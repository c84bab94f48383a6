"""Polynomial evaluation on Ember values, as a user writes it: Paterson-
Stockmeyer (baby-step giant-step) in the power and the Chebyshev basis. Each
works on ember.Encrypted values and, unchanged, on numpy arrays.

Baby steps x^1..x^k (T_1..T_k), k a power of two near sqrt(d + 1), each at
depth ceil(log2 i); giant steps x^k, x^2k, ... (T_k, T_2k, ...); the
polynomial is split at the largest giant step recursively, p = r + q * g
(Chebyshev: T_(g+i) = 2 T_g T_i - T_(g-i)). The scalar coefficients multiply
baby steps, whose depth leaves room for them, so the whole evaluation has
depth ceil(log2(d + 1)): 5 for degrees 16 and 27, 6 for 59 (the factors 2 of
the Chebyshev recurrences are integers and cost no level)."""

from __future__ import annotations

import math


def _log2ceil(n: int) -> int:
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def power_ps(x, coeffs, baby: int | None = None):
    """sum_i coeffs[i] x^i by Paterson-Stockmeyer: baby steps x^1..x^(k-1)
    (k a power of two), giant steps x^k, x^2k, x^4k, ...; the polynomial is
    split recursively at the largest giant step."""
    d = len(coeffs) - 1
    k = baby or 1 << max(1, round(math.log2(math.sqrt(d + 1))))
    pw = {1: x}
    for i in range(2, k + 1):
        a = 1 << (_log2ceil(i) - 1)  # x^i = x^a * x^(i-a), depth ceil(log2 i)
        pw[i] = pw[a] * pw[i - a]
    giants = [k]
    while giants[-1] * 2 <= d:
        giants.append(giants[-1] * 2)
        pw[giants[-1]] = pw[giants[-2]] * pw[giants[-2]]

    def baby_poly(c):
        out = None
        for i, ci in enumerate(c):
            if i == 0 or ci == 0:
                continue
            t = ci * pw[i]
            out = t if out is None else out + t
        if out is None:
            return c[0] if len(c) else 0.0
        return out + c[0] if c[0] else out

    def rec(c, gi):
        if len(c) <= k:
            return baby_poly(c)
        while gi > 0 and giants[gi] >= len(c):
            gi -= 1
        g = giants[gi]
        lo, hi = c[:g], c[g:]
        return rec(lo, gi - 1) + rec(hi, gi - 1) * pw[g]

    return rec(list(coeffs), len(giants) - 1)


def chebyshev_ps(x, coeffs, baby: int | None = None):
    """sum_i coeffs[i] T_i(x) by Paterson-Stockmeyer in the Chebyshev basis:
    baby steps T_1..T_(k-1), giant steps T_k, T_2k, ...; p = q T_g + r by
    T_(g+i) = 2 T_g T_i - T_(g-i)."""
    d = len(coeffs) - 1
    k = baby or 1 << max(1, round(math.log2(math.sqrt(d + 1))))
    t = {1: x}

    def cheb(n):
        if n in t:
            return t[n]
        a = 1 << (_log2ceil(n) - 1)
        b = n - a  # T_n = 2 T_a T_b - T_(a-b)
        prod = 2 * (cheb(a) * cheb(b))
        t[n] = prod - 1.0 if a == b else prod - cheb(a - b)
        return t[n]

    for i in range(1, k + 1):
        cheb(i)
    giants = [k]
    while giants[-1] * 2 <= d:
        giants.append(giants[-1] * 2)
        cheb(giants[-1])

    def baby_poly(c):
        out = None
        for i, ci in enumerate(c):
            if i == 0 or ci == 0:
                continue
            term = ci * t[i]
            out = term if out is None else out + term
        if out is None:
            return c[0]
        return out + c[0] if c[0] else out

    def rec(c, gi):
        if len(c) <= k:
            return baby_poly(c)
        while gi > 0 and giants[gi] >= len(c):
            gi -= 1
        g = giants[gi]
        r = list(c[:g])
        q = [c[g]] + [2 * ci for ci in c[g + 1 :]]
        for i in range(1, len(c) - g):
            r[g - i] -= c[g + i]
        return rec(r, gi - 1) + rec(q, gi - 1) * t[g]

    return rec(list(coeffs), len(giants) - 1)
