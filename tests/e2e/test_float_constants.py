"""Float constants: every finite double the tracer can meet is written so that
MLIR parses it back bit for bit (ember/_mlir.py's f64), checked through the
real parser (ember-opt), and a program with such constants compiles and
runs (issue 12: ``x * x + 1e-05`` did not parse).

The property test draws doubles from every part of the float64 range:
uniformly random bit patterns (every exponent equally likely), subnormals,
the extremes and signed zeros; ember-opt parses the module and prints every
dense constant as hex, which is compared with the input bit for bit. It runs
through both forms the tracer writes: decimal literals (constants of up to
64 values) and MLIR's hex bytes (longer ones, real and complex).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import _mlir  # noqa: E402
from frontend_helpers import close  # noqa: E402

LOC = ("prop.py", 1, 1)
EDGES = [
    0.0,
    -0.0,
    5e-324,  # the smallest subnormal
    -5e-324,
    2.2250738585072009e-308,  # the largest subnormal
    2.2250738585072014e-308,  # the smallest normal
    1.7976931348623157e308,  # the largest double
    -1.7976931348623157e308,
    1e-05,
    1e16,
    1e22,
    0.1,
    1 / 3,
    123456789012345678.0,
    2.0**-1074 * 3,
    float(np.nextafter(1.0, 2.0)),
    float(np.nextafter(1.0, 0.0)),
]


def finite_doubles(rng: np.random.Generator, n: int) -> np.ndarray:
    """n doubles: random bit patterns, subnormals and the edges, finite."""
    bits = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    subnormal = rng.integers(1, 2**52, size=n // 8, dtype=np.uint64)
    subnormal |= rng.integers(0, 2, size=n // 8, dtype=np.uint64) << np.uint64(63)
    values = np.concatenate([bits.view(np.float64), subnormal.view(np.float64)])
    values = values[np.isfinite(values)]
    return np.concatenate([np.array(EDGES), values])


def parse_back(module: str, ember_opt: Path) -> list[np.ndarray]:
    """Every dense constant of ``module`` as ember-opt parses it, in order."""
    run = subprocess.run(
        [str(ember_opt), "--mlir-print-elementsattrs-with-hex-if-larger=0", "-"],
        input=module,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    out = []
    pattern = r"dense<([^>]*)> : tensor<(\d+)x(f64|complex<f64>)>"
    for m in re.finditer(pattern, run.stdout):
        body, n = m[1], int(m[2])
        if body.startswith('"0x'):  # the bytes, little-endian
            dtype = "<f8" if m[3] == "f64" else "<c16"
            data = np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
        elif body.startswith("0x"):  # a splat printed as its bit pattern
            data = np.array([int(body, 16)], dtype=np.uint64).view(np.float64)
        else:  # a splat MLIR printed in decimal (it does only when exact)
            data = np.array([float(body)])
        out.append(np.broadcast_to(data, (n,)) if data.size == 1 else data)
    return out


@pytest.mark.parametrize("slots", [64, 1024])  # decimal, hex
def test_f64_literals_parse_back_exactly(build_dir, rng, slots):
    assert (slots > _mlir._HEX_ABOVE) == (slots == 1024)
    values = finite_doubles(rng, 40 * 1024)
    values = np.concatenate([values, np.zeros(-len(values) % slots)])
    emitter = _mlir.FunctionEmitter("f", LOC)
    acc = emitter.argument(0, slots, True, LOC)
    chunks = list(values.reshape(-1, slots)) + [np.full(slots, x) for x in EDGES]
    for chunk in chunks:
        acc = emitter.binary("add", acc, emitter.constant(chunk, slots, LOC), LOC)
    parsed = parse_back(emitter.finish([acc], LOC), build_dir / "bin" / "ember-opt")
    assert len(parsed) == len(chunks)
    for want, got in zip(chunks, parsed, strict=True):
        np.testing.assert_array_equal(
            np.asarray(got).view(np.uint64), want.view(np.uint64)
        )


def test_long_complex_constants_parse_back_exactly(build_dir, rng):
    slots = 256
    values = finite_doubles(rng, 4 * 2 * slots)[: 4 * 2 * slots]
    chunks = list(values.view(np.complex128).reshape(-1, slots))
    emitter = _mlir.FunctionEmitter("f", LOC)
    acc = emitter.argument(0, slots, True, LOC)
    for chunk in chunks:
        acc = emitter.binary("add", acc, emitter.constant(chunk, slots, LOC), LOC)
    text = emitter.finish([acc], LOC)
    assert text.count('dense<"0x') == len(chunks)
    parsed = parse_back(text, build_dir / "bin" / "ember-opt")
    for want, got in zip(chunks, parsed, strict=True):
        np.testing.assert_array_equal(
            np.asarray(got).view(np.uint64), want.view(np.uint64)
        )


def test_f64_literals_are_compact():
    assert _mlir.f64(1e-05) == "1.0e-5"
    assert _mlir.f64(1e16) == "1.0e16"
    assert _mlir.f64(-0.0) == "-0.0"
    assert _mlir.f64(0.1) == "0.1"
    assert _mlir.f64(5e-324) == "5.0e-324"
    emitter = _mlir.FunctionEmitter("f", LOC)
    x = emitter.argument(0, 8, True, LOC)
    emitter.binary("add", x, emitter.constant(np.full(8, 0.25), 8, LOC), LOC)
    emitter.binary("add", x, emitter.constant(0.25, 8, LOC), LOC)  # the same constant
    emitter.binary("add", x, emitter.constant(np.full(8, -0.0), 8, LOC), LOC)
    text = emitter.finish([x], LOC)
    assert text.count("fhe.constant dense<0.25>") == 1
    assert "dense<-0.0>" in text


@ember.program(slots=8)
def small_constants(x):
    return x * x + 1e-05, x - 5e-324 + 2.5e-7 * np.arange(8), x * -0.0 + x


def test_issue_example_compiles_and_runs(compiled, rng):
    c = compiled(small_constants)
    assert "dense<1.0e-5>" in c.ir("fhe")
    x = rng.uniform(-1, 1, 8)
    for got, want in zip(c(x=x), small_constants(x), strict=True):
        close(got, want)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_constants_are_refused(value):
    @ember.program(slots=8)
    def f(x):
        return x + value

    with pytest.raises(ember.TraceError, match="NaN or infinite"):
        f.trace()
