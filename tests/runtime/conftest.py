"""Shared fixtures of the runtime tests.

The module is found through PYTHONPATH only (the test command sets
PYTHONPATH=build/python); runtime_util imports it with a clear message when
it is missing. Contexts and keys are session-scoped: key
generation at N = 2^16 is expensive, so set B's keys are made once.

Random inputs are fresh on every run; the `rng` fixture prints its seed (shown
by pytest when a test fails) and EMBER_TEST_SEED=<seed> replays a run.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from runtime_util import er, make_ckks


@pytest.fixture
def rng(request) -> np.random.Generator:
    seed = (
        int(os.environ.get("EMBER_TEST_SEED", "0")) or np.random.SeedSequence().entropy
    )
    print(
        f"{request.node.nodeid}: numpy seed {seed} (EMBER_TEST_SEED={seed} replays it)"
    )
    return np.random.default_rng(seed)


@pytest.fixture(scope="session")
def ctx_b() -> er.Context:
    return er.Context(er.ParamSpec.named("B"))


@pytest.fixture(scope="session")
def ckks_b(ctx_b):
    """Set B with keys for rotations by 1, 5, -1, -7 and slots/2 + 3 over the
    full N/2 slots, conjugation and relinearization."""
    slots = ctx_b.slots_max
    return make_ckks(ctx_b, [1, 5, -1, -7, slots // 2 + 3], slots)


@pytest.fixture(scope="session")
def ctx_small() -> er.Context:
    """N = 2^12, 4 Q limbs + 2 P limbs, dnum 2: far below 128-bit security,
    so it must name the insecure test mode."""
    spec = er.ParamSpec(
        log_n=12,
        q_bits=[50, 40, 40, 40],
        p_bits=[50, 50],
        dnum=2,
        log_scale=40,
        insecure=True,
    )
    return er.Context(spec)


@pytest.fixture(scope="session")
def ckks_small(ctx_small):
    slots = ctx_small.slots_max
    return make_ckks(ctx_small, [1, -1, 3, slots // 2 + 1], slots)
