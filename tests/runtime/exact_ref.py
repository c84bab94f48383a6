"""Exact references for the RNS primitives, in Python big integers.

Nothing here calls the code under test: every function recomputes from the
definition what a primitive must produce, so the tests compare the runtime
with mathematics rather than with itself.
"""

from __future__ import annotations

import numpy as np


def brev(x: int, bits: int) -> int:
    """Bit reversal of x over `bits` bits."""
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


def brev_array(bits: int) -> np.ndarray:
    """brev(k) for k = 0 .. 2^bits - 1 (int64)."""
    k = np.arange(1 << bits, dtype=np.int64)
    out = np.zeros_like(k)
    for _ in range(bits):
        out = (out << 1) | (k & 1)
        k >>= 1
    return out


def random_residues(rng: np.random.Generator, primes: list[int], n: int) -> np.ndarray:
    """Uniform residues, one limb per prime: shape (len(primes), n), uint64."""
    return np.stack([rng.integers(0, q, size=n, dtype=np.uint64) for q in primes])


# --- Polynomials over one prime ---------------------------------------------


def negacyclic_mul(a: np.ndarray, b: np.ndarray, q: int) -> np.ndarray:
    """a * b in Z_q[X]/(X^N + 1), exactly, by Kronecker substitution.

    Each coefficient goes into a slot wide enough for a full convolution sum
    (N * q^2), so one big-integer product gives the plain product of the
    polynomials; X^N = -1 folds the upper half back with a minus sign.
    """
    n = len(a)
    width_bytes = max(8, (2 * int(q).bit_length() + n.bit_length() + 8) // 8)

    def pack(v: np.ndarray) -> int:
        buf = np.zeros((n, width_bytes), dtype=np.uint8)
        buf[:, :8] = np.ascontiguousarray(v, dtype="<u8").view(np.uint8).reshape(n, 8)
        return int.from_bytes(buf.tobytes(), "little")

    raw = (pack(a) * pack(b)).to_bytes(2 * n * width_bytes, "little")
    w = width_bytes
    full = [int.from_bytes(raw[i * w : (i + 1) * w], "little") for i in range(2 * n)]
    return np.array([(full[i] - full[i + n]) % q for i in range(n)], dtype=np.uint64)


def poly_eval(coeffs: list[int], x: int, q: int) -> int:
    """a(x) mod q by Horner's rule."""
    r = 0
    for c in reversed(coeffs):
        r = (r * x + c) % q
    return r


def smallest_primitive_2n_root(q: int, n: int) -> int:
    """The smallest psi in [0, q) with psi^N = -1 (mod q), i.e. a primitive
    2N-th root (2N is a power of two): find one, then take the minimum over
    its odd powers, which are all of them."""
    assert (q - 1) % (2 * n) == 0
    g = 2
    while True:
        root = pow(g, (q - 1) // (2 * n), q)
        if pow(root, n, q) == q - 1:
            break
        g += 1
    best, cur, step = root, root, root * root % q
    for _ in range(n - 1):
        cur = cur * step % q
        best = min(best, cur)
    return best


def automorphism_coeff(a: np.ndarray, galois: int, q: int) -> np.ndarray:
    """X -> X^g on one coefficient-form limb: a_i moves to i*g mod 2N, with a
    sign flip when that exponent is >= N (X^N = -1)."""
    n = len(a)
    exp = (np.arange(n, dtype=np.int64) * (galois % (2 * n))) % (2 * n)
    neg = exp >= n
    vals = a.astype(np.uint64).copy()
    vals[neg] = (np.uint64(q) - vals[neg]) % np.uint64(q)
    out = np.zeros(n, dtype=np.uint64)
    out[exp % n] = vals
    return out


def automorphism_ntt_map(log_n: int, galois: int) -> np.ndarray:
    """Where NTT slot j of sigma_g(a) reads from: slot j holds a(psi^e_j),
    e_j = 2*brev(j)+1, so sigma_g(a) there is a(psi^(e_j*g)), which is the
    slot j' with e_j' = e_j*g mod 2N."""
    n = 1 << log_n
    br = brev_array(log_n)
    e = (2 * br + 1) * (galois % (2 * n)) % (2 * n)
    return br[(e - 1) // 2]


# --- RNS / CRT ----------------------------------------------------------------


def prod(values: list[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


class Crt:
    """CRT over a list of primes: reconstruction and the BConv sum."""

    def __init__(self, primes: list[int]):
        self.primes = [int(p) for p in primes]
        self.modulus = prod(self.primes)
        self.hat = [self.modulus // p for p in self.primes]
        self.hat_inv = [
            pow(h % p, -1, p) for h, p in zip(self.hat, self.primes, strict=True)
        ]

    def reconstruct(self, residues: list[int]) -> int:
        """The X in [0, M) with X = r_i mod p_i."""
        total = 0
        for r, h, hi, p in zip(
            residues, self.hat, self.hat_inv, self.primes, strict=True
        ):
            total += (r * hi % p) * h
        return total % self.modulus

    def reconstruct_centred(self, residues: list[int]) -> int:
        """The X in (-M/2, M/2] with X = r_i mod p_i."""
        return centred(self.reconstruct(residues), self.modulus)

    def bconv_sum(self, residues: list[int]) -> int:
        """The centred BConv sum, not reduced: sum_i y~_i * (B/b_i) with
        y_i = [x_i * (B/b_i)^-1]_{b_i} and y~_i = y_i - b_i when y_i > b_i/2.
        It equals X_c + u*B with X_c the centred representative of X and
        |u| <= |B|/2."""
        total = 0
        for r, h, hi, p in zip(
            residues, self.hat, self.hat_inv, self.primes, strict=True
        ):
            y = r * hi % p
            total += (y - p if y > p // 2 else y) * h
        return total


def columns(arr: np.ndarray, positions) -> list[list[int]]:
    """Residue columns (one list of Python ints per coefficient position)."""
    rows = arr[:, positions].tolist()
    return [list(col) for col in zip(*rows, strict=True)]


def centred(x: int, m: int) -> int:
    """The representative of x mod m in (-m/2, m/2] (m odd: [-(m-1)/2, (m-1)/2])."""
    x %= m
    return x - m if x > m // 2 else x


def round_div(x: int, d: int) -> int:
    """round(x / d) for an odd d > 0 (no ties)."""
    return (x + d // 2) // d
