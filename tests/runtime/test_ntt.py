"""NTT/INTT against the definition, in Python big integers.

The forward transform takes natural-order coefficients to bit-reversed
evaluations, out[k] = a(psi^(2*brev(k)+1)) mod q. Checked three ways: the
product ntt -> pointwise multiply -> intt equals the exact negacyclic product
(Kronecker substitution), sampled outputs equal Horner evaluations at the
right power of psi (psi recomputed independently as the smallest primitive
2N-th root, the header's contract), and intt inverts ntt. For 30- to 61-bit
primes, N = 2^4 .. 2^16, and for 32-bit words.
"""

from __future__ import annotations

import ember_runtime as er
import numpy as np
import pytest
from exact_ref import (
    brev,
    negacyclic_mul,
    poly_eval,
    random_residues,
    smallest_primitive_2n_root,
)

Q_BITS = [61, 55, 50, 45, 40, 36, 30]


def prime_context(log_n: int, q_bits: list[int]) -> er.Context:
    # One prime per digit, so that one 61-bit P prime covers every digit.
    spec = er.ParamSpec(
        log_n=log_n, q_bits=q_bits, p_bits=[61], dnum=len(q_bits), insecure=True
    )
    return er.Context(spec)


def pointwise_mul(a: np.ndarray, b: np.ndarray, q: int) -> np.ndarray:
    return ((a.astype(object) * b.astype(object)) % q).astype(np.uint64)


def check_product(ntt, intt, ctx, rng, limbs: list[int]) -> None:
    n = ctx.n
    primes = [ctx.primes[i] for i in limbs]
    a = random_residues(rng, primes, n)
    b = random_residues(rng, primes, n)
    fa, fb = ntt(ctx, a, limbs), ntt(ctx, b, limbs)
    prod = np.stack([pointwise_mul(fa[i], fb[i], q) for i, q in enumerate(primes)])
    got = intt(ctx, prod, limbs)
    for i, q in enumerate(primes):
        want = negacyclic_mul(a[i], b[i], q)
        assert np.array_equal(
            got[i], want
        ), f"negacyclic product wrong mod q={q} ({q.bit_length()} bits), N={n}"


def check_evaluations(ntt, ctx, rng, limbs: list[int], samples: int) -> None:
    n, log_n = ctx.n, ctx.log_n
    primes = [ctx.primes[i] for i in limbs]
    a = random_residues(rng, primes, n)
    out = ntt(ctx, a, limbs)
    ks = (
        range(n)
        if n <= samples
        else sorted(rng.choice(n, samples, replace=False).tolist())
    )
    for i, (index, q) in enumerate(zip(limbs, primes, strict=True)):
        psi = ctx.psi(index)
        assert (
            pow(psi, n, q) == q - 1
        ), f"psi={psi} is not a primitive 2N-th root mod {q}"
        assert psi == smallest_primitive_2n_root(
            q, n
        ), f"psi={psi} is not the smallest primitive 2N-th root mod {q}"
        coeffs = a[i].tolist()
        for k in ks:
            x = pow(psi, 2 * brev(k, log_n) + 1, q)
            assert int(out[i, k]) == poly_eval(
                coeffs, x, q
            ), f"ntt output {k} wrong mod {q}, N={n}"


@pytest.mark.parametrize("log_n", [4, 5, 8, 10, 12, 14])
def test_ntt_product_is_negacyclic_convolution(log_n, rng):
    ctx = prime_context(log_n, Q_BITS)
    check_product(er.ntt, er.intt, ctx, rng, ctx.q_basis(ctx.max_level))


def test_ntt_product_n_2_16(rng):
    # Two primes only: the exact product at N = 2^16 costs a few seconds each.
    ctx = prime_context(16, [61, 30])
    check_product(er.ntt, er.intt, ctx, rng, [0, 1])


@pytest.mark.parametrize("log_n", [4, 6, 9, 13, 16])
def test_ntt_evaluates_at_bit_reversed_odd_powers(log_n, rng):
    ctx = prime_context(log_n, Q_BITS)
    check_evaluations(er.ntt, ctx, rng, ctx.q_basis(ctx.max_level), samples=8)


@pytest.mark.parametrize("log_n", [4, 7, 11, 16])
def test_intt_inverts_ntt(log_n, rng):
    ctx = prime_context(log_n, Q_BITS)
    limbs = ctx.qp_basis(ctx.max_level)
    primes = [ctx.primes[i] for i in limbs]
    x = random_residues(rng, primes, ctx.n)
    assert np.array_equal(er.intt(ctx, er.ntt(ctx, x, limbs), limbs), x)
    assert np.array_equal(er.ntt(ctx, er.intt(ctx, x, limbs), limbs), x)


def test_ntt_of_zero_and_constant(rng):
    ctx = prime_context(10, [50, 40])
    limbs = [0, 1]
    zero = np.zeros((2, ctx.n), dtype=np.uint64)
    assert not er.ntt(ctx, zero, limbs).any()
    # A constant polynomial evaluates to itself everywhere.
    c = np.zeros((2, ctx.n), dtype=np.uint64)
    c[:, 0] = [7, 11]
    out = er.ntt(ctx, c, limbs)
    assert (out[0] == 7).all() and (out[1] == 11).all()


# --- 32-bit words ---------------------------------------------------------------

Q_BITS_32 = [30, 29, 27, 24]


def context32(log_n: int) -> er.Context32:
    primes = er.generate_ntt_primes(log_n, Q_BITS_32 + [30])
    assert all(p < 2**30 for p in primes)
    spec = er.ParamSpec(
        log_n=log_n, q_bits=Q_BITS_32, p_bits=[30], dnum=len(Q_BITS_32), insecure=True
    )
    return er.Context32(spec, primes[:-1], primes[-1:])


@pytest.mark.parametrize("log_n", [4, 10, 14])
def test_ntt32_product_is_negacyclic_convolution(log_n, rng):
    ctx = context32(log_n)
    check_product(er.ntt32, er.intt32, ctx, rng, ctx.qp_basis(ctx.max_level))


@pytest.mark.parametrize("log_n", [5, 12, 16])
def test_ntt32_evaluations_and_inverse(log_n, rng):
    ctx = context32(log_n)
    limbs = ctx.qp_basis(ctx.max_level)
    check_evaluations(er.ntt32, ctx, rng, limbs, samples=6)
    primes = [ctx.primes[i] for i in limbs]
    x = random_residues(rng, primes, ctx.n).astype(np.uint32)
    y = er.ntt32(ctx, x, limbs)
    assert y.dtype == np.uint32
    assert np.array_equal(er.intt32(ctx, y, limbs), x)


def test_ntt32_equals_ntt64_on_the_same_primes(rng):
    """Both word sizes compute the same function: identical residues."""
    log_n = 12
    ctx32 = context32(log_n)
    spec = er.ParamSpec(
        log_n=log_n, q_bits=Q_BITS_32, p_bits=[30], dnum=len(Q_BITS_32), insecure=True
    )
    ctx64 = er.Context(spec, ctx32.primes[:-1], ctx32.primes[-1:])
    limbs = ctx32.qp_basis(ctx32.max_level)
    x = random_residues(rng, ctx32.primes, ctx32.n)
    y32 = er.ntt32(ctx32, x.astype(np.uint32), limbs)
    y64 = er.ntt(ctx64, x, limbs)
    assert np.array_equal(y32.astype(np.uint64), y64)
    # The generic names dispatch on the context's word size too.
    assert np.array_equal(er.ntt(ctx32, x.astype(np.uint32), limbs), y32)
