"""Double-prime scaling's modulus chain (issue 15; ember/primes.h
generateDoublePrimeChain): q_0, then pairs of NTT primes below 2^30 (32-bit
words) whose products carry the scale, chosen from the top level down so
that every level's scale comes back to 2^log_scale.

The scales are checked in exact decimal arithmetic (120 digits): the
recursion s_{l-1} = s_l^2 / (a_l b_l) doubles any rounding error at every
level, so floating point cannot check a chain of 23 pairs."""

from __future__ import annotations

from decimal import Decimal, localcontext

import ember_runtime as er
import pytest


def scales(chain: list[int], log_scale: int) -> list[Decimal]:
    """s_l / 2^log_scale from the top pair down (s_top = 2^log_scale)."""
    pairs = (len(chain) - 1) // 2
    with localcontext() as ctx:
        ctx.prec = 120
        delta = Decimal(2) ** log_scale
        s, out = delta, []
        for level in range(pairs, 0, -1):
            out.append(s / delta)
            s = s * s / (Decimal(chain[2 * level - 1]) * chain[2 * level])
        out.append(s / delta)
        return out


@pytest.mark.parametrize(
    ("log_n", "pairs", "log_scale"), [(16, 23, 56), (16, 23, 58), (13, 10, 50)]
)
def test_pairs_keep_the_scale(log_n, pairs, log_scale):
    """Cheddar's 32-bit shape (47 Q limbs: q_0 and 23 pairs) at N = 2^16,
    and a small ring: distinct NTT primes below 2^30, and every level's
    scale within 2^-9 of 2^log_scale (the best of 64 pairs per level misses
    its target by 2^-10 to 2^-16 at N = 2^16; without the correction
    towards 2^log_scale the error walks, and without tracking it squares)."""
    chain = er.generate_double_prime_chain(log_n, 30, pairs, log_scale)
    assert len(chain) == 2 * pairs + 1 and len(set(chain)) == len(chain)
    for q in chain:
        assert q < 2**30 and q % (2 << log_n) == 1 and er.is_prime(q)
    for level, ratio in enumerate(scales(chain, log_scale)):
        assert abs(ratio - 1) < Decimal(2) ** -9, (level, ratio)


def test_runs_of_pairs_keep_their_own_scales():
    """A scale per pair (bootstrapping at 32-bit words: the program's pairs
    at 2^48, the procedure's 16 at 2^59 above them, N = 2^16): each run is
    tracked from its own top, as ckks levelScales reads the chain, so both
    runs' scales stay near their own 2^scale: within 2^-9 at 2^59 (about
    200 primes near 2^29.5 = 1 mod 2^17), within the generator's 2^-6 at
    2^48, the smallest pair scale at N = 2^16 (primes near 2^24 are sparse:
    measured up to 2^-7.0)."""
    program, procedure = [48] * 10, [59] * 16
    chain = er.generate_double_prime_chain(16, 30, program + procedure)
    assert len(chain) == 1 + 2 * 26 and len(set(chain)) == len(chain)
    assert all(q < 2**30 and er.is_prime(q) for q in chain)
    top = [chain[0], *chain[1 + 2 * len(program) :]]
    for ratio in scales(top, 59):
        assert abs(ratio - 1) < Decimal(2) ** -9
    for ratio in scales(chain[: 1 + 2 * len(program)], 48):
        assert abs(ratio - 1) < Decimal(2) ** -6
    # One scale for every pair is the chain of the scalar form.
    assert er.generate_double_prime_chain(13, 30, [50] * 4) == (
        er.generate_double_prime_chain(13, 30, 4, 50)
    )


def test_primes_that_run_out_are_refused():
    """At N = 2^16, 2^44 would need pairs of about 22-bit primes = 1 mod
    2^17, of which there are a handful: the chain is refused, not
    returned with a drifting scale."""
    with pytest.raises(er.InvalidArgument, match="within 2\\^-6 of the scale"):
        er.generate_double_prime_chain(16, 30, 20, 44)
    with pytest.raises(er.InvalidArgument, match="outside"):
        er.generate_double_prime_chain(16, 30, 4, 62)  # above two 30-bit primes


def test_cheddar32_context_takes_its_chain_from_the_pairs():
    """ParamSpec.named('cheddar32') builds a 32-bit context whose Q chain is
    generate_double_prime_chain's (q_0 and 23 pairs carrying 2^58), 12 P
    primes of 30 bits, 128-bit secure; an even Q count is refused."""
    spec = er.ParamSpec.named("cheddar32")
    assert spec.scale_primes == 2
    ctx = er.Context32(spec)
    assert (ctx.q_count, ctx.p_count, ctx.scale_primes) == (47, 12, 2)
    assert "32-bit words, double-prime scaling" in ctx.describe()
    chain = ctx.primes[:47]
    assert chain == er.generate_double_prime_chain(16, 30, 23, 58)
    assert all(p < 2**30 for p in ctx.primes)
    assert ctx.spec.log_qp <= er.max_log_qp_128(16)
    for s in scales(chain, 58):
        assert abs(s - 1) < Decimal(2) ** -9
    spec.q_bits = spec.q_bits[:-1]
    with pytest.raises(er.InvalidArgument, match="odd number of Q primes"):
        er.Context32(spec)
