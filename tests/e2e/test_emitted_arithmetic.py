"""The modular arithmetic of generated kernels (em_mul, em_mac2, em_add,
em_sub, em_neg, as ember-translate --emit-cpp writes them) against Python's
big integers, at the largest primes Ember allows (61 bits) and at the
program's own, on random residues and on the extremes 0 and q - 1.

em_mac2 (a b + c d summed in 128 bits, reduced once: the tensor product's
d1 in one kernel) is exact only while both products fit with their sum,
em_reduce_sum (a lazy sum of up to 60 products; 64-bit words only) only
while the sum fits 128 bits,
and em_reduce's Barrett estimate (the bit length k of the modulus, x below
2^(2k+1)) only while its quotient falls short by at most 3; this is the
test that catches a bound that stops holding."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
func.func @mul(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %m : !fhe.ct<8>
}
"""

HARNESS = r"""
#include <cstdio>
int main() {
  char op[8];
  int g;
  unsigned long long a, b, c, d;
  while (std::scanf("%7s %d %llu %llu %llu %llu", op, &g, &a, &b, &c, &d) == 6) {
    const uint64_t q = kQ[g];
    uint64_t r = 0;
    switch (op[0]) {
    case 'm': r = em_mul(g, a, b); break;
    case 'c': r = em_mac2(g, a, b, c, d); break;
    case 'a': r = em_add(q, a, b); break;
    case 's': r = em_sub(q, a, b); break;
    case 'n': r = em_neg(q, a); break;
#ifdef LAZY_SUMS
    case 'r': r = em_reduce_sum(a, b, g); break; // x = b 2^64 + a
#endif
    }
    std::printf("%llu\n", (unsigned long long)r);
  }
}
"""


def _helpers(source: str, moduli: list[int]) -> str:
    """The emitted tables and em_* helpers, with the moduli replaced."""
    start = source.index("// Modular arithmetic of generated kernels")
    end = source.index("[[maybe_unused]] static inline int em_modulus")

    def table(name: str, values) -> str:
        row = ", ".join(f"{v}ull" for v in values)
        return f"static const uint64_t {name}[{len(moduli)}] = {{{row}}};\n"

    ratio = [(1 << 128) // m for m in moduli]
    tables = (
        table("kQ", moduli)
        + table("kQBits", [m.bit_length() for m in moduli])
        + table("kMu", [(1 << 2 * m.bit_length()) // m for m in moduli])
        + table("kRatioHi", [r >> 64 for r in ratio])
        + table("kRatioLo", [r & ((1 << 64) - 1) for r in ratio])
    )
    return "#include <cstdint>\n" + tables + source[start:end]


def _emitted_cpp(build_dir: Path, tmp_path: Path, word: int) -> str:
    mlir = tmp_path / "mul.mlir"
    mlir.write_text(PROGRAM)
    kernel = subprocess.run(
        [str(build_dir / "bin/ember-opt"), f"--fhe-to-kernel=word={word}", str(mlir)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return subprocess.run(
        [str(build_dir / "bin/ember-translate"), "--emit-cpp"],
        input=kernel,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


# Moduli beyond the program's, by word: the largest residues each allows and
# the widest shifts of the Barrett reduction.
EXTRA_MODULI = {
    64: [
        2305843009213693951,  # 2^61 - 1 (prime): the largest residues allowed
        2305843009211596801,  # the largest NTT prime of 61 bits, 1 mod 2^17
        2147483647,  # 2^31 - 1, the largest 25-bit prime and 2^16 + 1
        33554393,
        65537,
    ],
    # 32-bit words: em_mul's 32 x 32-bit products (moduli below 2^31).
    32: [2147483647, 2147483629, 33554393, 65537, 3],
}


@pytest.mark.parametrize("word", [64, 32])
def test_kernel_arithmetic_is_exact(build_dir, tmp_path, word):
    source = _emitted_cpp(build_dir, tmp_path, word)
    assert f"// Residues are {word}-bit words." in source
    # The program's d1 is one em_mac2: the helper under test is the one used.
    assert re.search(r"em_mac2\(g, x\d+, x\d+, x\d+, x\d+\); // rns.add", source)
    program_q = [
        int(m)
        for m in re.search(r"kQ\[\d+\] = \{([^}]*)\}", source)[1]
        .replace("ull", "")
        .split(",")
    ]
    # Lazy sums at 64-bit words only (at 32 each product is reduced).
    lazy = word == 64
    assert ("em_reduce_sum(uint64_t" in source) == lazy
    moduli = program_q + EXTRA_MODULI[word]
    exe = tmp_path / "arith"
    src = tmp_path / "arith.cpp"
    src.write_text(
        ("#define LAZY_SUMS 1\n" if lazy else "") + _helpers(source, moduli) + HARNESS
    )
    subprocess.run(
        ["g++", "-std=c++17", "-O2", "-o", str(exe), str(src)],
        check=True,
        capture_output=True,
    )
    rnd = random.Random()
    cases, want = [], []
    for g, q in enumerate(moduli):
        edge = [0, 1, q - 1, q - 2]
        for i in range(400):
            a, b, c, d = (
                edge[(i + j) % 4] if i < 16 else rnd.randrange(q) for j in range(4)
            )
            cases += [
                ("m", g, a, b, 0, 0),
                ("c", g, a, b, c, d),
                ("a", g, a, b, 0, 0),
                ("s", g, a, b, 0, 0),
                ("n", g, a, 0, 0, 0),
            ]
            want += [a * b % q, (a * b + c * d) % q, (a + b) % q, (a - b) % q, -a % q]
        # Lazy sums (em_reduce_sum): 3 to 60 products, random and all at the
        # largest residue (the largest sum the emitter lets build up).
        for n in (3, 17, 60) if lazy else ():
            for top in (False, True):
                x = sum(
                    (q - 1) ** 2 if top else rnd.randrange(q) * rnd.randrange(q)
                    for _ in range(n)
                )
                cases.append(("r", g, x & (2**64 - 1), x >> 64, 0, 0))
                want.append(x % q)
    out = subprocess.run(
        [str(exe)],
        input="\n".join(" ".join(map(str, c)) for c in cases),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    got = [int(x) for x in out]
    assert len(got) == len(want)
    bad = [(c, w, r) for c, w, r in zip(cases, want, got, strict=True) if w != r]
    assert not bad, f"{len(bad)} wrong, e.g. {bad[:3]}"
