"""BConv, ModUp, ModDown, rescale and automorphisms against exact big-integer
CRT arithmetic.

For each primitive the test reconstructs the integers behind the residues and
recomputes what the primitive must return from its definition (rns.h). NTT
form is converted with er.ntt/er.intt, which test_ntt.py checks exactly on
its own. At N = 2^16 the big-integer checks run on a random sample of
coefficient positions (pure-Python CRT over 2^16 x 30 limbs is too slow for a
test); at small N they cover every position.
"""

from __future__ import annotations

import itertools
import random

import ember_runtime as er
import numpy as np
import pytest
from exact_ref import (
    Crt,
    automorphism_coeff,
    automorphism_ntt_map,
    centred,
    columns,
    prod,
    random_residues,
    round_div,
)

SAMPLES_LARGE_N = 300


def small_context() -> er.Context:
    """N = 2^10: 6 Q limbs of 30..61 bits, 3 P limbs, dnum 2 (digits 3, 3)."""
    spec = er.ParamSpec(
        log_n=10,
        q_bits=[61, 50, 45, 40, 36, 30],
        p_bits=[61, 60, 59],
        dnum=2,
        insecure=True,
    )
    return er.Context(spec)


def c_shape_context(log_n: int) -> er.Context:
    """Set C's shape (26 Q limbs: 55 + 25 x 48; 7 x 56 P; dnum 4, digits
    7, 7, 7, 5): the named set at N = 2^16, an insecure copy at small N."""
    if log_n == 16:
        return er.Context(er.ParamSpec.named("C"))
    spec = er.ParamSpec(
        log_n=log_n, q_bits=[55] + [48] * 25, p_bits=[56] * 7, dnum=4, insecure=True
    )
    return er.Context(spec)


@pytest.fixture(scope="module")
def ctx_small() -> er.Context:
    return small_context()


@pytest.fixture(scope="module")
def ctx_c16() -> er.Context:
    return c_shape_context(16)


@pytest.fixture(scope="module")
def ctx_c10() -> er.Context:
    return c_shape_context(10)


def positions(ctx, rng) -> np.ndarray:
    if ctx.n <= 4096:
        return np.arange(ctx.n)
    return np.sort(rng.choice(ctx.n, SAMPLES_LARGE_N, replace=False))


def primes_of(ctx, basis: list[int]) -> list[int]:
    return [ctx.primes[i] for i in basis]


def random_poly(ctx, rng, basis: list[int]) -> np.ndarray:
    return random_residues(rng, primes_of(ctx, basis), ctx.n)


# --- Digit layout ---------------------------------------------------------------


def test_digit_layout_of_set_c(ctx_c16):
    ctx = ctx_c16
    assert (ctx.q_count, ctx.p_count, ctx.max_level) == (26, 7, 25)
    q, p = primes_of(ctx, ctx.q_basis(25)), primes_of(ctx, ctx.p_basis())
    assert er.digit_sizes(q, p, 4) == [7, 7, 7, 5]
    assert [len(ctx.digit_limbs(d, 25)) for d in range(ctx.digit_count(25))] == [
        7,
        7,
        7,
        5,
    ]
    for level in range(ctx.max_level + 1):
        digits = [ctx.digit_limbs(d, level) for d in range(ctx.digit_count(level))]
        assert sum(digits, []) == ctx.q_basis(
            level
        ), f"digits do not tile Q at level {level}"
        assert all(digits), f"empty digit at level {level}"
    assert ctx.digit_count(6) == 1 and ctx.digit_count(7) == 2
    assert ctx.q_basis(3) == [0, 1, 2, 3]
    assert ctx.p_basis() == list(range(26, 33))
    assert ctx.qp_basis(3) == [0, 1, 2, 3] + list(range(26, 33))


def best_layout(bits: list[int], dnum: int) -> list[int]:
    """Slow reference for balanced digits: over every split of the chain into
    at most dnum runs of consecutive limbs, the smallest largest digit; then
    the greedy packing under that cap (the fewest digits at every level)."""
    n = len(bits)
    best = min(
        max(sum(bits[a:b]) for a, b in itertools.pairwise([0, *inner, n]))
        for cuts in range(dnum)
        for inner in itertools.combinations(range(1, n), cuts)
    )
    sizes, total = [], 0
    for b in bits:
        if sizes and total + b <= best:
            sizes[-1] += 1
            total += b
        else:
            sizes.append(1)
            total = b
    return sizes


def test_digit_layout_balances_bits():
    """Digits hold consecutive limbs: equal counts where P covers them (every
    named set), else balanced by bits, so that a chain of 40-bit program
    primes under 60-bit bootstrapping primes fits a smaller P at a dnum."""
    # bootstrap16's chain, 50 + 9 x 40 + 16 x 60, with 6 x 60-bit P: equal
    # counts at dnum 4 (7, 7, 7, 5) reach 420 bits, the balanced digits 360.
    q = er.generate_ntt_primes(16, [50] + [40] * 9 + [60] * 16)
    p = er.generate_ntt_primes(16, [60] * 6, q)
    assert er.digit_sizes(q, p, 4) == [8, 6, 6, 6]  # 330, 320, 360, 360 bits
    assert er.digit_sizes(q, p, 5) == [6, 6, 6, 6, 2]  # covered: equal counts
    assert er.digit_sizes(q, p[:5], 5) == [7, 6, 5, 5, 3]  # under 300 bits
    assert er.digit_sizes(q, [], 4) == [7, 7, 7, 5]  # no P: equal counts
    # a prime just above or just below 2^b counts b bits
    assert er.digit_sizes([(1 << 60) + 325] * 9, p[:3], 4) == [3, 3, 3]
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 9)
        bits = [rng.choice([30, 40, 50, 60]) for _ in range(n)]
        dnum = rng.randint(1, n + 1)
        balanced = er.balanced_digit_sizes(bits, dnum)
        assert balanced == best_layout(bits, dnum), (bits, dnum)
        assert sum(balanced) == n and len(balanced) <= dnum
        q = [(1 << b) + rng.choice([1, -1]) for b in bits]
        p_bits = rng.choice([0, 60, 120, 180, 240])
        p = [(1 << 60) - 1] * (p_bits // 60)
        alpha = -(-n // dnum)
        equal = [min(alpha, n - start) for start in range(0, n, alpha)]
        largest = max(
            sum(bits[a:b])
            for a, b in itertools.pairwise(np.cumsum([0, *equal]).tolist())
        )
        want = equal if p_bits == 0 or largest <= p_bits else balanced
        assert er.digit_sizes(q, p, dnum) == want, (bits, p_bits, dnum)


# --- BConv ------------------------------------------------------------------------


def check_bconv(ctx, rng, from_basis, to_basis) -> None:
    x = random_poly(ctx, rng, from_basis)
    out = er.bconv(ctx, x, from_basis, to_basis)
    assert out.shape == (len(to_basis), ctx.n)
    crt = Crt(primes_of(ctx, from_basis))
    targets = primes_of(ctx, to_basis)
    pos = positions(ctx, rng)
    got = columns(out, pos)
    for p, (j, col) in enumerate(zip(pos, columns(x, pos), strict=True)):
        y = crt.bconv_sum(col)
        u, rem = divmod(y - crt.reconstruct_centred(col), crt.modulus)
        assert rem == 0 and 2 * abs(u) <= len(
            from_basis
        ), f"BConv sum is not X_c + u*B with |u| <= |B|/2 at {j}"
        assert got[p] == [y % t for t in targets], f"bconv wrong at coefficient {j}"


@pytest.mark.parametrize(
    "from_basis,to_basis",
    [
        ([0, 1, 2], [6, 7, 8]),  # a Q digit to P
        ([6, 7, 8], [0, 1, 2, 3, 4, 5]),  # P to Q (ModDown's direction)
        ([3, 4], [0, 1, 2, 6, 7, 8]),  # the second digit at level 4
        ([5], [0, 8]),  # one limb
        ([0, 1, 2, 3, 4, 5, 6, 7], [8]),  # many to one
    ],
)
def test_bconv_exact(ctx_small, rng, from_basis, to_basis):
    check_bconv(ctx_small, rng, from_basis, to_basis)


def test_bconv_exact_n_2_16(ctx_c16, rng):
    ctx = ctx_c16
    check_bconv(
        ctx, rng, ctx.digit_limbs(3, 25), ctx.digit_limbs(0, 25) + ctx.p_basis()
    )


# --- ModUp ------------------------------------------------------------------------


def check_mod_up(ctx, rng, level: int, digit: int) -> None:
    q_basis, qp_basis = ctx.q_basis(level), ctx.qp_basis(level)
    digit_basis = ctx.digit_limbs(digit, level)
    x = random_poly(ctx, rng, q_basis)
    out = er.mod_up(ctx, x, level, digit)
    assert out.shape == (len(qp_basis), ctx.n)
    # The digit's own limbs pass through unchanged (NTT form).
    for index in digit_basis:
        assert np.array_equal(
            out[qp_basis.index(index)], x[q_basis.index(index)]
        ), f"digit limb {index} changed"
    # Every other limb is the exact BConv of the digit, in coefficient form.
    rows = [q_basis.index(i) for i in digit_basis]
    digit_coeffs = er.intt(ctx, x[rows], digit_basis)
    out_coeffs = er.intt(ctx, out, qp_basis)
    crt = Crt(primes_of(ctx, digit_basis))
    others = [
        (k, index) for k, index in enumerate(qp_basis) if index not in digit_basis
    ]
    pos = positions(ctx, rng)
    got = columns(out_coeffs, pos)
    for p, (j, col) in enumerate(zip(pos, columns(digit_coeffs, pos), strict=True)):
        y = crt.bconv_sum(col)
        for k, index in others:
            assert (
                got[p][k] == y % ctx.primes[index]
            ), f"mod_up limb {index} wrong at coefficient {j}"


@pytest.mark.parametrize("level,digit", [(5, 0), (5, 1), (4, 1), (2, 0)])
def test_mod_up_exact(ctx_small, rng, level, digit):
    check_mod_up(ctx_small, rng, level, digit)


@pytest.mark.parametrize("level,digit", [(25, 0), (25, 3), (22, 3), (12, 1), (3, 0)])
def test_mod_up_exact_uneven_digits(ctx_c10, rng, level, digit):
    check_mod_up(ctx_c10, rng, level, digit)


@pytest.mark.parametrize("level,digit", [(25, 3), (13, 1)])
def test_mod_up_exact_n_2_16(ctx_c16, rng, level, digit):
    check_mod_up(ctx_c16, rng, level, digit)


# --- ModDown ----------------------------------------------------------------------


def check_mod_switch_down(ctx, rng, basis: list[int], keep: list[int], switch) -> None:
    """Modulus switch from basis = keep u D down to keep:
    (x - BConv_c([x]_D)) * D^-1 = round(x / D) - u with the centred BConv
    error u (|u| <= |D|/2, 0 for one prime): exact per coefficient, and
    unbiased (the mean error over the coefficients is about 0, since a biased
    error lands on the slots next to 1 multiplied by ~2N/pi)."""
    drop = [i for i in basis if i not in keep]
    x = random_poly(ctx, rng, basis)
    out = switch(x)
    assert out.shape == (len(keep), ctx.n)
    x_coeffs = er.intt(ctx, x, basis)
    out_coeffs = er.intt(ctx, out, keep)
    keep_primes, drop_primes = primes_of(ctx, keep), primes_of(ctx, drop)
    big_d, big_keep = prod(drop_primes), prod(keep_primes)
    d_inv = [pow(big_d % q, -1, q) for q in keep_primes]
    crt_d, crt_keep, crt_all = (
        Crt(drop_primes),
        Crt(keep_primes),
        Crt(primes_of(ctx, basis)),
    )
    d_rows = [basis.index(i) for i in drop]
    keep_rows = [basis.index(i) for i in keep]
    pos = positions(ctx, rng)
    got = columns(out_coeffs, pos)
    errors = []
    for p, (j, col) in enumerate(zip(pos, columns(x_coeffs, pos), strict=True)):
        conv = crt_d.bconv_sum([col[r] for r in d_rows])
        want = [
            (col[r] - conv) * d_inv[i] % q
            for i, (r, q) in enumerate(zip(keep_rows, keep_primes, strict=True))
        ]
        assert (
            got[p] == want
        ), f"modulus switch {basis} -> {keep} wrong at coefficient {j}"
        err = centred(
            crt_keep.reconstruct(got[p]) - round_div(crt_all.reconstruct(col), big_d),
            big_keep,
        )
        assert 2 * abs(err) <= len(
            drop
        ), f"modulus switch far from round(X/D) at {j}: {err}"
        errors.append(err)
    # u is about a sum of |D| centred uniforms (variance |D|/12): five standard
    # deviations of the sample mean; a floor-style bias would be 1/2 or more.
    mean, limit = float(np.mean(errors)), 5 * (len(drop) / 12 / len(errors)) ** 0.5
    assert (
        abs(mean) <= limit
    ), f"error vs round(X/D) has mean {mean:.3f} (limit {limit:.3f}): biased"


def check_mod_down(ctx, rng, level: int) -> None:
    check_mod_switch_down(
        ctx,
        rng,
        ctx.qp_basis(level),
        ctx.q_basis(level),
        lambda x: er.mod_down(ctx, x, level),
    )


@pytest.mark.parametrize("level", [5, 3, 0])
def test_mod_down_exact(ctx_small, rng, level):
    check_mod_down(ctx_small, rng, level)


@pytest.mark.parametrize("level", [25, 20, 6])
def test_mod_down_exact_c_shape(ctx_c10, rng, level):
    check_mod_down(ctx_c10, rng, level)


def test_mod_down_exact_n_2_16(ctx_c16, rng):
    check_mod_down(ctx_c16, rng, 25)


def test_mod_down_of_p_times_x_is_x(ctx_small, rng):
    """P * x is 0 modulo every p, so ModDown divides it by P exactly."""
    ctx = ctx_small
    level = 5
    qp_basis = ctx.qp_basis(level)
    x = random_poly(ctx, rng, ctx.q_basis(level))
    big_p = prod(primes_of(ctx, ctx.p_basis()))
    scaled = np.zeros((len(qp_basis), ctx.n), dtype=np.uint64)
    for k, index in enumerate(ctx.q_basis(level)):
        q = ctx.primes[index]
        scaled[k] = ((x[k].astype(object) * (big_p % q)) % q).astype(np.uint64)
    assert np.array_equal(er.mod_down(ctx, scaled, level), x)


@pytest.mark.parametrize(
    "case",
    ["merged P q_l", "one prime", "rescale shape", "keep out of order", "P only"],
)
def test_mod_switch_down_exact(ctx_small, rng, case):
    """The one rounding modulus switch behind ModDown and rescale, including
    their merged form (drop P and q_l at once, Cheddar 5.2)."""
    ctx = ctx_small
    basis, keep = {
        "merged P q_l": (ctx.qp_basis(5), ctx.q_basis(4)),
        "one prime": ([0, 1, 2, 3], [0, 1, 3]),
        "rescale shape": (ctx.q_basis(3), ctx.q_basis(2)),
        "keep out of order": ([0, 1, 2, 6, 7], [2, 0, 1]),
        "P only": (ctx.p_basis(), ctx.p_basis()[:1]),
    }[case]
    check_mod_switch_down(
        ctx, rng, basis, keep, lambda x: er.mod_switch_down(ctx, x, basis, keep)
    )


def test_mod_switch_down_merged_n_2_16(ctx_c16, rng):
    ctx = ctx_c16
    basis, keep = ctx.qp_basis(25), ctx.q_basis(24)
    check_mod_switch_down(
        ctx, rng, basis, keep, lambda x: er.mod_switch_down(ctx, x, basis, keep)
    )


def test_mod_switch_down_rejects_bad_subsets(ctx_small):
    ctx = ctx_small
    x = np.zeros((3, ctx.n), dtype=np.uint64)
    for keep in ([0, 1, 2], [0, 5], [0, 0]):
        with pytest.raises(er.InvalidArgument):
            er.mod_switch_down(ctx, x, [0, 1, 2], keep)


# --- Rescale ----------------------------------------------------------------------


def check_rescale(ctx, rng, level: int) -> None:
    q_basis, out_basis = ctx.q_basis(level), ctx.q_basis(level - 1)
    x = random_poly(ctx, rng, q_basis)
    out = er.rescale(ctx, x, level)
    assert out.shape == (len(out_basis), ctx.n)
    x_coeffs = er.intt(ctx, x, q_basis)
    out_coeffs = er.intt(ctx, out, out_basis)
    q_last = ctx.primes[level]
    q_primes = primes_of(ctx, out_basis)
    inv = [pow(q_last % q, -1, q) for q in q_primes]
    crt_in, crt_out = Crt(primes_of(ctx, q_basis)), Crt(q_primes)
    pos = positions(ctx, rng)
    got = columns(out_coeffs, pos)
    for p, (j, col) in enumerate(zip(pos, columns(x_coeffs, pos), strict=True)):
        r = centred(col[-1], q_last)  # the centred remainder of X mod q_l
        want = [(col[i] - r) * inv[i] % q for i, q in enumerate(q_primes)]
        assert got[p] == want, f"rescale wrong at coefficient {j} (level {level})"
        # Exact division of X - r: the result is round(X / q_l).
        assert (
            crt_out.reconstruct(got[p])
            == round_div(crt_in.reconstruct(col), q_last) % crt_out.modulus
        )


@pytest.mark.parametrize("level", [5, 1])
def test_rescale_exact(ctx_small, rng, level):
    check_rescale(ctx_small, rng, level)


def test_rescale_exact_n_2_16(ctx_c16, rng):
    check_rescale(ctx_c16, rng, 25)


# --- Automorphism -----------------------------------------------------------------


def galois_elements(ctx, rng) -> list[int]:
    two_n = 2 * ctx.n
    odd = int(rng.integers(0, ctx.n)) * 2 + 1
    return [5, pow(5, 7, two_n), pow(5, ctx.n // 2 - 3, two_n), two_n - 1, odd, 1]


def check_automorphism(ctx, rng, basis: list[int], galois: int) -> None:
    primes = primes_of(ctx, basis)
    a = random_poly(ctx, rng, basis)
    # Coefficient form: the definition.
    got = er.automorphism(ctx, a, basis, False, galois)
    for i, q in enumerate(primes):
        assert np.array_equal(
            got[i], automorphism_coeff(a[i], galois, q)
        ), f"coefficient automorphism g={galois}"
    # NTT form: commutes with the transform, and is the index map it claims.
    x = random_poly(ctx, rng, basis)
    got = er.automorphism(ctx, x, basis, True, galois)
    x_coeffs = er.intt(ctx, x, basis)
    want_coeffs = np.stack(
        [automorphism_coeff(x_coeffs[i], galois, q) for i, q in enumerate(primes)]
    )
    assert np.array_equal(
        got, er.ntt(ctx, want_coeffs, basis)
    ), f"NTT automorphism g={galois}"
    index = er.automorphism_ntt_index(ctx.log_n, galois)
    assert np.array_equal(
        index.astype(np.int64), automorphism_ntt_map(ctx.log_n, galois)
    )
    assert np.array_equal(got, x[:, index])


def test_automorphism_small(ctx_small, rng):
    basis = ctx_small.qp_basis(ctx_small.max_level)
    for galois in galois_elements(ctx_small, rng):
        check_automorphism(ctx_small, rng, basis, galois)


@pytest.mark.parametrize("log_n", [4, 13, 16])
def test_automorphism_sizes(log_n, rng):
    spec = er.ParamSpec(
        log_n=log_n, q_bits=[61, 40, 30], p_bits=[61], dnum=3, insecure=True
    )
    ctx = er.Context(spec)
    for galois in galois_elements(ctx, rng)[:3] + [2 * ctx.n - 1]:
        check_automorphism(ctx, rng, [0, 2, 3], galois)


def test_galois_elements(ctx_small):
    ctx = ctx_small
    two_n, slots = 2 * ctx.n, ctx.slots_max
    for k in [0, 1, 5, -1, -7, slots // 2 + 3, slots + 2]:
        assert er.galois_element_for_rotation(ctx, k, slots) == pow(5, k % slots, two_n)
    assert er.galois_element_for_rotation(ctx, 3, 8) == pow(5, 3, two_n)
    assert er.galois_element_for_conjugation(ctx) == two_n - 1


# --- Elementwise ----------------------------------------------------------------


def test_elementwise_ops(ctx_small, rng):
    ctx = ctx_small
    basis = ctx.qp_basis(4)
    primes = primes_of(ctx, basis)
    a, b = random_poly(ctx, rng, basis), random_poly(ctx, rng, basis)
    consts = [int(rng.integers(0, q, dtype=np.uint64)) for q in primes]
    ao, bo = a.astype(object), b.astype(object)
    qs = np.array(primes, dtype=object)[:, None]
    cs = np.array(consts, dtype=object)[:, None]

    def same(got, want):
        return np.array_equal(got, (want % qs).astype(np.uint64))

    assert same(er.poly_add(ctx, a, b, basis), ao + bo)
    assert same(er.poly_sub(ctx, a, b, basis), ao - bo)
    assert same(er.poly_mul(ctx, a, b, basis), ao * bo)
    assert same(er.poly_neg(ctx, a, basis), -ao)
    assert same(er.poly_mul_const(ctx, a, basis, consts), ao * cs)
    assert same(er.poly_add_const(ctx, a, basis, consts, False), ao + cs)


# --- 32-bit words ----------------------------------------------------------------
# The same definitions at 32-bit words (primes below 2^30, Context32): the
# CPU reference that the GPU's 32-bit primitives are compared with bit for bit
# (runtime/cuda/tests/cuda_test.cpp, CudaWords32).


def context32(log_n: int) -> er.Context32:
    """6 Q limbs of 25..30 bits, 3 P limbs of 29..30 bits, dnum 2."""
    q_bits, p_bits = [30, 29, 28, 27, 26, 25], [30, 30, 29]
    primes = er.generate_ntt_primes(log_n, q_bits + p_bits)
    assert len(set(primes)) == len(primes) and max(primes) < 2**30
    spec = er.ParamSpec(
        log_n=log_n, q_bits=q_bits, p_bits=p_bits, dnum=2, insecure=True
    )
    return er.Context32(spec, primes[: len(q_bits)], primes[len(q_bits) :])


@pytest.fixture(scope="module")
def ctx32() -> er.Context32:
    return context32(10)


@pytest.mark.parametrize(
    "from_basis,to_basis",
    [([0, 1, 2], [6, 7, 8]), ([6, 7, 8], [0, 1, 2, 3, 4, 5]), ([5], [0, 8])],
)
def test_bconv_exact_32(ctx32, rng, from_basis, to_basis):
    check_bconv(ctx32, rng, from_basis, to_basis)


def test_bconv_exact_32_many_sources(rng):
    """17 sources: more than the 8 products a 64-bit accumulator of 30-bit
    residues holds before the GPU kernel folds it."""
    q_bits = [30] * 17 + [29, 28]
    primes = er.generate_ntt_primes(10, q_bits)
    spec = er.ParamSpec(log_n=10, q_bits=q_bits, p_bits=[], dnum=1, insecure=True)
    ctx = er.Context32(spec, primes, [])
    check_bconv(ctx, rng, list(range(17)), [17, 18])


@pytest.mark.parametrize("level,digit", [(5, 0), (5, 1), (2, 0)])
def test_mod_up_exact_32(ctx32, rng, level, digit):
    check_mod_up(ctx32, rng, level, digit)


@pytest.mark.parametrize("level", [5, 1])
def test_mod_down_and_rescale_exact_32(ctx32, rng, level):
    check_mod_down(ctx32, rng, level)
    check_rescale(ctx32, rng, level)


def test_automorphism_exact_32(ctx32, rng):
    basis = ctx32.qp_basis(ctx32.max_level)
    for galois in galois_elements(ctx32, rng)[:4]:
        check_automorphism(ctx32, rng, basis, galois)


# --- Key switching ------------------------------------------------------------


@pytest.mark.parametrize("level", [5, 4, 1])
def test_key_switch_is_d_times_s_prime_plus_small_noise(ctx_small, rng, level):
    """(k0, k1) = key_switch(d) satisfies k0 + k1 s = d s' + e over Q_l with
    e small: checked in big integers on every coefficient. Bound: the digit
    terms d_j e_j / P (d_j < P, |e_j| <= 6 sigma) and the ModDown rounding
    times (1 + |s|_1) stay below N * 2^5 at N = 2^10; a wrong key switch
    leaves an error of size Q_l."""
    ctx = ctx_small
    kg = er.KeyGenerator(ctx)
    top = ctx.qp_basis(ctx.max_level)
    s = kg.secret_key().residues()
    s_prime = random_poly(ctx, rng, top)  # any s' (uniform here, not small)
    key = kg.switching_key(ctx, s_prime)
    q_basis = ctx.q_basis(level)
    d = random_poly(ctx, rng, q_basis)
    k = er.Evaluator(ctx).key_switch(ctx, d, level, key)
    rows = [top.index(i) for i in q_basis]
    qs = np.array(primes_of(ctx, q_basis), dtype=object)[:, None]
    lhs = k[0].astype(object) + k[1].astype(object) * s[rows].astype(object)
    rhs = d.astype(object) * s_prime[rows].astype(object)
    diff = ((lhs - rhs) % qs).astype(np.uint64)
    noise = er.intt(ctx, diff, q_basis)
    crt = Crt(primes_of(ctx, q_basis))
    worst = max(
        abs(crt.reconstruct_centred(col)) for col in columns(noise, range(ctx.n))
    )
    assert worst < ctx.n * 32, f"key switching noise {worst} at level {level}"
