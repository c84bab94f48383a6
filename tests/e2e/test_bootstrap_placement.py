"""bootstrap="auto" (issue 14, automatic bootstrap placement): the compiler
inserts the bootstraps of a program deeper than any chain, at the least
predicted cost (fhe-to-ckks with the placement of fhe-place-bootstraps:
a shortest path over the program's points, priced by the ckks cost model),
picks the levels between bootstraps, and reports each bootstrap in the cost
report. The deep examples (a 20-layer polynomial network, ten iterations of
logistic-regression training) run at N = 2^13 in the named insecure test
mode against numpy; the placement's decisions, options and errors are
checked on smaller programs that only compile.

dnum = 4 keeps the test mode's key switching near what 128-bit parameters
get (the test mode's own choice is one digit, a P as large as Q); the
placement itself prices every op and bootstrap with the 128-bit parameters
N = 2^16 would get, so it places what a real program would."""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import ember
import numpy as np
import pytest
from frontend_helpers import line_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import fixed_point  # noqa: E402
import logistic_regression_training as training  # noqa: E402
import poly_net  # noqa: E402

SLOTS = 4096  # N / 2 at N = 2^13: full slots
OPTIONS = {"security": "none", "bootstrap": "auto", "dnum": 4}
PROCEDURE_LEVELS = 16  # Bootstrap.h, with encapsulation

# One bootstrap at N = 2^13 leaves at most 2^-21 absolute error on values
# in [-1, 1] (tests/e2e/test_bootstrap.py, MAX_ERR: measured 2^-22.0 worst
# over three seeds); each level of the 2^40 program run adds about 2^-30
# relative (tests/e2e/test_poly_eval.py).
BOOTSTRAP_ERR = 2**-21
LEVEL_ERR = 2**-30


def placement(compiled: ember.Compiled) -> tuple[int, int, list[str]]:
    """(levels between bootstraps, bootstraps, their source lines) from the
    cost report; (0, 0, []) when nothing was placed."""
    report = compiled.cost_report
    head = re.search(r"bootstrap placement \(bootstrap=auto, (\d+) levels", report)
    if not head:
        return 0, 0, []
    count = int(re.search(r"(\d+) bootstrap\(s\) x", report).group(1))
    sites = re.findall(r"bootstrap \d+ of the value at (\S+):", report)
    assert len(sites) == count
    return int(head.group(1)), count, sites


def chain_run(compiled: ember.Compiled) -> int:
    """Levels of the program's run: the chain less q_0 and the procedure."""
    return len(compiled.manifest["params"]["q"]) - 1 - PROCEDURE_LEVELS


def fewest_bootstraps(total: int, levels: int) -> int:
    """The fewest bootstraps of a chain of 3-level layers when each may
    only refresh one value: after a layer's affine part t (one level in) or
    after the layer (three), as Paterson-Stockmeyer keeps t and t^2 live
    in between. Greedy (the furthest such point within reach) is optimal
    for covering a line by jumps."""
    at, count = 0, 0
    while total - at > levels:
        at = max(p for p in range(at + 1, at + levels + 1) if p % 3 in (0, 1))
        count += 1
    return count


def test_poly_net_twenty_layers(build_dir, rng):
    """Sixty levels: bootstraps between layers, the fewest a chain needs."""
    prog = poly_net.network(SLOTS)
    compiled = ember.compile(prog, **OPTIONS)
    levels, count, sites = placement(compiled)
    assert levels >= 3 and chain_run(compiled) == levels
    # Layers are a chain: the least count any placement can have.
    assert count == fewest_bootstraps(3 * poly_net.LAYERS, levels)
    assert {s.rsplit(":", 1)[0] for s in sites} == {poly_net.__file__}
    print(f"{levels} levels between bootstraps, {count} bootstraps")
    # One bootstrap's error, at most doubled by the activation right after
    # it (slope <= 1.5), then damped: every later layer is a contraction
    # (1.5 (|a| + |b|) <= 0.9). Plus the levels' rounding.
    x = rng.uniform(-1, 1, SLOTS)
    want = poly_net.reference(x)
    np.testing.assert_allclose(prog(x=x), want, atol=1e-12)  # the plain run
    err = np.abs(compiled(x=x) - want)
    bound = 1.5 * count * BOOTSTRAP_ERR + 3 * poly_net.LAYERS * LEVEL_ERR
    assert err.max() < bound, f"2^{math.log2(err.max()):.1f}, {count} bootstraps"


def test_poly_net_at_32_bit_words(build_dir, rng):
    """bootstrap="auto" at word=32: the placement prices runs of pairs
    with the 32-bit cost model (6 levels between bootstraps here, 9
    bootstraps; measured 2^-23.5..-24.4 worst over six key sets). One
    32-bit bootstrap leaves a bit more error than a 64-bit one
    (tests/e2e/test_bootstrap.py, MAX_ERR_32 = 2^-20). This test caught
    ModRaise's fast BConv from Q_0's three limbs: I past K = 14 at about
    5 of its deviations, in an estimated 1-3% of runs (8192 coefficients,
    nine bootstraps), evaluated EvalMod's cosine past its interval (2^-15.7;
    test_bootstrap.py::test_modraise_multiple_within_evalmod_range)."""
    prog = poly_net.network(SLOTS)
    compiled = ember.compile(prog, **OPTIONS, word=32)
    assert compiled.word == 32
    levels, count, _ = placement(compiled)
    assert levels >= 3
    assert count == fewest_bootstraps(3 * poly_net.LAYERS, levels)
    # The chain: q_0, the base pair, a pair per level.
    assert len(compiled.manifest["params"]["q"]) == 3 + 2 * (levels + PROCEDURE_LEVELS)
    x = rng.uniform(-1, 1, SLOTS)
    want = poly_net.reference(x)
    err = np.abs(compiled(x=x) - want)
    bound = 1.5 * count * 2 * BOOTSTRAP_ERR + 3 * poly_net.LAYERS * LEVEL_ERR
    assert err.max() < bound, f"2^{math.log2(err.max()):.1f}, {count} bootstraps"


def test_logistic_regression_training(build_dir):
    """Ten iterations, seventy levels; w is what gets bootstrapped."""
    prog = training.trainer(SLOTS)
    compiled = ember.compile(prog, **OPTIONS)
    levels, count, sites = placement(compiled)
    assert chain_run(compiled) == levels
    assert count >= math.ceil(7 * training.ITERATIONS / levels) - 1
    assert set(sites) <= {
        f"{training.__file__}:{line_of(training.trainer, text)}"
        for text in ("w = w + g", "g = ember.approx", "p = z * w")
    }
    data = training.data(SLOTS, np.random.default_rng(5))
    want = training.reference(**data)
    np.testing.assert_allclose(prog(**data), want, atol=1e-12)
    got = compiled(**data)
    # w sums 512 samples' weighted features per iteration with |dw/dw| near
    # 1 (each sample's weight f' <= 8 RATE / (4 n)): the error of each
    # bootstrap of w (|w| < 1 here) carries over once, plus the levels'.
    assert np.max(np.abs(want)) < 1
    bound = (count + 1) * BOOTSTRAP_ERR + 7 * training.ITERATIONS * LEVEL_ERR
    err = np.max(np.abs(got - want))
    assert err < bound, f"2^{math.log2(err):.1f}, {count} bootstraps"
    # It learns: the trained weights classify most of the batch, and the
    # encrypted run's as many as numpy's.
    assert training.accuracy(data["z"], want) > 0.75
    assert training.accuracy(data["z"], got) == training.accuracy(data["z"], want)


def test_bootstrap_levels_fix_the_run(build_dir):
    """bootstrap_levels=4: six 3-level layers (18 levels) take five, at
    levels 4, 7, 10, 13 and 16 (after each t); ceil(18 / 4) - 1 = 4 would
    need a cut where two values are live."""
    compiled = ember.compile(poly_net.network(SLOTS, 6), bootstrap_levels=4, **OPTIONS)
    levels, count, sites = placement(compiled)
    assert fewest_bootstraps(18, 4) == 5
    assert (levels, count, chain_run(compiled)) == (4, 5, 4)
    t_line = f"{poly_net.__file__}:{line_of(poly_net.network, 'y = ember.poly')}"
    assert sites == [t_line] * 5
    report = compiled.cost_report
    each = float(re.search(r"bootstrap\(s\) x ([\d.]+)", report).group(1))
    assert each > 0
    assert report.count(f": {each:.1f}\n") == count  # one line per bootstrap


def key_mib(compiled: ember.Compiled) -> float:
    """The evaluation keys' memory from the cost report, MiB."""
    total = re.search(r"key memory: .* total (\d+) bytes", compiled.cost_report)
    return int(total.group(1)) / 2**20


def test_key_memory_budget_limits_the_run(build_dir):
    """key_memory_mib with bootstrap="auto": only runs whose keys fit are
    candidates (fewer levels mean fewer limbs and digits per key, and more
    bootstraps). The placement's estimate is the cost report's count here:
    a budget of exactly the unconstrained keys keeps the run, one MiB less
    takes a shorter one, and under the shortest run's keys the compile
    fails saying what they take."""
    prog = poly_net.network(SLOTS)
    free = ember.compile(prog, **OPTIONS)
    levels, count, _ = placement(free)
    assert count > 0
    need = math.ceil(key_mib(free))
    same = ember.compile(prog, key_memory_mib=need, **OPTIONS)
    assert placement(same)[:2] == (levels, count)
    tight = ember.compile(prog, key_memory_mib=need - 1, **OPTIONS)
    tight_levels, tight_count, _ = placement(tight)
    assert tight_levels < levels and tight_count > count
    assert key_mib(tight) <= need - 1
    with pytest.raises(
        ember.CompileError,
        match=r"no run between bootstraps fits key_memory_mib = 100: the "
        r"smallest keys, \d+ of them with 1 levels between bootstraps, take "
        r"\d+ MiB",
    ):
        ember.compile(prog, key_memory_mib=100, **OPTIONS)


def test_no_bootstrap_when_the_program_fits(build_dir):
    """Three layers (9 levels) fit a 128-bit chain: auto adds nothing, and
    the chain is the one the program gets without it."""
    prog = poly_net.network(SLOTS, 3)
    compiled = ember.compile(prog, **OPTIONS)
    assert placement(compiled) == (0, 0, [])
    assert "fhe.mod_raise" not in compiled.ir("ckks")
    plain = ember.compile(prog, security="none", dnum=4)
    assert compiled.manifest["params"]["q"] == plain.manifest["params"]["q"]


def test_too_deep_says_auto_helps(build_dir):
    prog = poly_net.network(SLOTS, 40)
    with pytest.raises(ember.DepthError, match="bootstrap=auto inserts bootstraps"):
        ember.compile(prog)


def test_small_vectors_bootstrap_sparsely(build_dir, rng):
    """A deep program on 8 slots (examples/fixed_point.py): every value is
    a cut point (sparse packing, tests/e2e/test_bootstrap.py), and the
    placement prices the bootstrap at 8 slots (smaller transforms and one
    EvalMod: cheaper than at N/2). y <- (y^2 + x) / 2 contracts (its
    derivative y stays below 1/2 for x in [0, 1/2]), so each bootstrap's
    error is damped, not amplified: the result is within one bootstrap's
    error of numpy (measured 2^-32.2 mean, 2^-30.3 worst)."""

    def first_bootstrap_us(compiled: ember.Compiled) -> float:
        report = compiled.cost_report
        return float(re.search(r"bootstrap 1 of the value at \S+: ([\d.]+)", report)[1])

    deep = fixed_point.iteration(8)  # examples/fixed_point.py on 8 slots
    compiled = ember.compile(deep, **OPTIONS)
    levels, count, sites = placement(compiled)
    assert count == math.ceil(60 / levels) - 1
    line = line_of(deep, "y = (y * y + x) * 0.5")
    assert all(site.endswith(f":{line}") for site in sites)
    full = ember.compile(fixed_point.iteration(SLOTS), **OPTIONS)
    assert placement(full)[0] == levels
    assert first_bootstrap_us(compiled) < 0.8 * first_bootstrap_us(full)
    x = rng.uniform(0, 0.5, 8)
    want = fixed_point.reference(x)
    np.testing.assert_allclose(deep(x=x), want, rtol=1e-12)
    err = np.abs(compiled(x=x) - want)
    assert err.max() < BOOTSTRAP_ERR, f"worst slot 2^{math.log2(err.max()):.1f}"


def test_small_vectors_get_a_ring_that_bootstraps(build_dir):
    """1024 slots would fit N = 2^11, whose 128-bit chains hold no
    bootstrap: without log_n the program gets N = 2^16, the smallest ring
    that does (sparse packing there); a log_n that fixes a smaller ring is
    refused with what to do. Compile only (examples/fixed_point.py, as
    `ember run examples/fixed_point.py --bootstrap auto` runs it: 4
    bootstraps, 2^-23.8 worst against numpy, 30 s on two CPU cores)."""
    compiled = ember.compile(fixed_point.fixed_point, bootstrap="auto")
    params = compiled.manifest["params"]
    assert params["log_n"] == 16 and params["security"] == 128
    levels, count, _ = placement(compiled)
    assert count == math.ceil(2 * fixed_point.STEPS / levels) - 1
    with pytest.raises(ember.CompileError, match="drop log_n or raise it"):
        ember.compile(fixed_point.fixed_point, bootstrap="auto", log_n=13)


def test_values_too_large_to_bootstrap(build_dir):
    """Every value can reach 20, more than bootstrapping's input range."""

    @ember.program(slots=SLOTS, ranges={"x": (-20, 20)})
    def large(x):
        y = x
        for _ in range(40):
            y = (y * y) * 0.05  # |y| <= 20 throughout
        return y

    with pytest.raises(ember.CompileError, match="accurate only up to"):
        ember.compile(large, **OPTIONS)


def test_auto_with_a_named_set_is_refused(build_dir):
    with pytest.raises(ember.CompileError, match="parameter set 'B'"):
        ember.compile(poly_net.network(SLOTS, 1), params="B", bootstrap="auto")
