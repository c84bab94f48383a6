"""Security bounds of the runtime: the one bit count (ember/security.h)."""

from __future__ import annotations

import math

import ember_runtime as er
import pytest

# --- One bit count -----------------------------------------------------------------


def primes_above(log_n: int, bits: int, count: int) -> list[int]:
    out, c = [], 2**bits + 1
    while len(out) < count:
        if er.is_prime(c):
            out.append(c)
        c += 2 ** (log_n + 1)
    return out


def test_bit_count_at_the_bound():
    """Three primes just above 2^54 and one below 2^56 at N = 2^13 (218
    bits allowed): rounding log2 counted 218, the bit length counts 221."""
    q = primes_above(13, 54, 3)
    p = er.generate_ntt_primes(13, [56])
    assert sum(round(math.log2(x)) for x in q + p) == 218
    spec = er.ParamSpec(log_n=13, q_bits=[55] * 3, p_bits=[56], dnum=3)
    with pytest.raises(er.SecurityError, match=r"log2\(QP\) = 221"):
        er.Context(spec, q, p)
    assert [er.prime_bits(x) for x in q] == [x.bit_length() for x in q] == [55] * 3
    assert er.log_qp(q, p) == 221
