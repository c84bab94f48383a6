"""@ember.program(scheme="tfhe"): encrypted integers and bits compiled into
bootstrapped-gate circuits or radix blocks under tables, run on the CPU,
decrypted and compared with Python's integer arithmetic (modulo 2^k, two's
complement for ember.Int) on fresh random inputs. Most programs run at the
insecure test sets (named: security="none"), TOY (bits) and TOY_4BIT_MR
(radix blocks), which bootstrap in about a millisecond; one adder and
comparison runs at STD128 and one at STD128_4BIT_MR, the real sets.
Radix circuits are also checked exhaustively on plaintexts
(``c.simulate``), which follows the circuit table op by op."""

from __future__ import annotations

from pathlib import Path

import ember
import pytest
from ember import cli

ROOT = Path(__file__).resolve().parents[2]

TOY = {"params": "TOY", "security": "none"}
RADIX = {"params": "TOY_4BIT_MR", "security": "none"}
# Both encodings: gate circuits over bits and radix blocks.
ENCODINGS = pytest.mark.parametrize("sets", [TOY, RADIX], ids=["bits", "radix"])


def wrap(v: int, bits: int, signed: bool = False) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def test_adder_and_comparison_at_std128(rng) -> None:
    @ember.program(scheme="tfhe")
    def add_cmp(x: ember.UInt(8), y: ember.UInt(8)):
        return x + y, x < y

    c = ember.compile(add_cmp)
    assert c.params.name == "STD128"
    assert c.stats["log2_gate_failure"] < -120
    for _ in range(2):
        x, y = (int(v) for v in rng.integers(0, 256, 2))
        assert c(x=x, y=y) == ((x + y) % 256, int(x < y))


def test_adder_and_comparison_at_std128_4bit_mr(rng) -> None:
    """Radix blocks at the real set: 9 tables over 3 levels for the add, 5
    over 2 for the comparison, each failing at most 2^-61.5."""

    @ember.program(scheme="tfhe")
    def add_cmp(x: ember.UInt(8), y: ember.UInt(8)):
        return x + y, x < y

    c = ember.compile(add_cmp, params="STD128_4BIT_MR")
    assert c.stats["encoding"] == "radix"
    assert c.stats["blind_rotations"] == 14 and c.stats["depth"] == 3
    assert c.stats["log2_pbs_failure_worst"] < -61.5
    x, y = (int(v) for v in rng.integers(0, 256, 2))
    assert c(x=x, y=y) == ((x + y) % 256, int(x < y))


@ENCODINGS
def test_unsigned_arithmetic(sets, rng) -> None:
    @ember.program(scheme="tfhe")
    def arith(x: ember.UInt(6), y: ember.UInt(6)):
        return x + y, x - y, x * y, x * 5 + 3, 7 - x

    c = ember.compile(arith, **sets)
    for _ in range(4):
        x, y = (int(v) for v in rng.integers(0, 64, 2))
        want = tuple(wrap(v, 6) for v in (x + y, x - y, x * y, 5 * x + 3, 7 - x))
        assert c(x, y) == want, (x, y)
        assert c.simulate(x, y) == want, (x, y)  # bits or blocks, on plaintexts


@pytest.mark.parametrize("params", ["TOY_AP", "TOY_MR"])
def test_blind_rotation_variants(params: str, rng) -> None:
    """The same program at the AP/DM and modulus-raising test sets (their
    128-bit sets, STD128_AP and STD128_4BIT_MR, are accepted the same way):
    every output right."""

    @ember.program(scheme="tfhe")
    def f(x: ember.UInt(3), y: ember.UInt(3)):
        return x + y, x < y

    c = ember.compile(f, params=params, security="none")
    assert c.params.name == params
    for _ in range(3):
        x, y = (int(v) for v in rng.integers(0, 8, 2))
        assert c(x, y) == ((x + y) % 8, int(x < y)), (x, y)


@ENCODINGS
def test_signed_comparisons(sets, rng) -> None:
    @ember.program(scheme="tfhe")
    def cmp(a: ember.Int(5), b: ember.Int(5)):
        return a < b, a <= b, a > b, a >= b, a == b, a != b, a - b

    c = ember.compile(cmp, **sets)
    cases = [(-16, 15), (15, -16), (-1, -1), (0, -1)]
    cases += [tuple(int(v) for v in rng.integers(-16, 16, 2)) for _ in range(3)]
    for a, b in cases:
        want = (a < b, a <= b, a > b, a >= b, a == b, a != b)
        assert c(a=a, b=b) == (*(int(w) for w in want), wrap(a - b, 5, True)), (a, b)


@ENCODINGS
def test_bitwise_and_bits(sets, rng) -> None:
    @ember.program(scheme="tfhe")
    def bits(x: ember.UInt(4), y: ember.UInt(4), s: ember.Bit):
        return x & y, x | y, x ^ y, ~x, (x ^ 0b1010) & 0b0110, s ^ 1

    c = ember.compile(bits, **sets)
    for _ in range(3):
        x, y = (int(v) for v in rng.integers(0, 16, 2))
        s = int(rng.integers(0, 2))
        want = (x & y, x | y, x ^ y, 15 - x, (x ^ 10) & 6, 1 - s)
        assert c(x=x, y=y, s=s) == want


@ENCODINGS
def test_lookup_tables(sets, rng) -> None:
    table = [int(v) for v in rng.integers(0, 16, 16)]
    square = [(i * i) % 8 for i in range(8)]

    @ember.program(scheme="tfhe")
    def luts(x: ember.UInt(4), z: ember.Int(3)):
        return ember.lut(table)(x), ember.lut(square)(z)

    c = ember.compile(luts, **sets)
    assert c.outputs == [ember.UInt(4), ember.UInt(3)]
    for x in (0, 15, int(rng.integers(0, 16))):
        for z in (-4, -1, 3):
            assert c(x=x, z=z) == (table[x], square[z % 8])


def test_keys_encrypt_run_decrypt_and_ir() -> None:
    @ember.program(scheme="tfhe")
    def inc(x: ember.UInt(3)):
        return x + 1

    c = ember.compile(inc, **TOY)
    keys = c.keygen()
    out = c.run(keys.evaluation, c.encrypt(keys, x=7))
    assert c.decrypt(keys, out) == 0
    assert "fhe.int_add" in c.ir("fhe")
    lwe = c.ir("lwe")
    assert "lwe.gate" in lwe and "lwe.mux" not in lwe  # x + 1: no carry MUX
    # Encrypted bits carry no key material: the evaluation keys are what runs.
    assert c.stats["blind_rotations"] == 3  # XOR x1, AND carry, XOR x2


@ENCODINGS
def test_save_and_load(sets, tmp_path) -> None:
    @ember.program(scheme="tfhe")
    def mac(a: ember.Int(4), b: ember.Int(4), c: ember.Int(4)):
        return a * b + c

    c = ember.compile(mac, **sets)
    path = c.save(tmp_path / "mac")
    with pytest.raises(ember.SecurityError, match="not a 128-bit set"):
        ember.load(tmp_path / "mac")
    loaded = ember.load(tmp_path / "mac", security="none")
    assert loaded.inputs == c.inputs and loaded.outputs == c.outputs
    assert loaded.stats == c.stats
    keys = c.keygen()  # keys of the compiled program run the loaded one
    out = loaded.run(keys.evaluation, loaded.encrypt(keys, a=-3, b=5, c=7))
    assert loaded.decrypt(keys, out) == wrap(-3 * 5 + 7, 4, True)
    path.write_text(path.read_text().replace('"mac"', '"max"'))
    with pytest.raises(ember.SerializationError, match="does not match its hash"):
        ember.load(tmp_path / "mac", security="none")


@ENCODINGS
def test_client_and_server_exchange_bytes(sets, tmp_path) -> None:
    """The client sends evaluation keys and ciphertexts as bytes; the server
    (the program loaded from disk) runs on them and returns bytes."""

    @ember.program(scheme="tfhe")
    def gt(x: ember.UInt(3), y: ember.UInt(3)):
        return x > y

    client = ember.compile(gt, **sets)
    client.save(tmp_path)
    keys = client.keygen()
    evk = client.serialize(keys.evaluation)
    inputs = client.serialize(client.encrypt(keys, x=6, y=5))
    server = ember.load(tmp_path, security="none")
    out = server.run(server.evaluation_keys_from(evk), server.ciphertexts_from(inputs))
    assert client.decrypt(keys, client.ciphertexts_from(server.serialize(out))) == 1
    with pytest.raises(ember.SerializationError, match="checksum mismatch"):
        server.ciphertexts_from(inputs[:-1] + bytes([inputs[-1] ^ 1]))
    # Bits and radix blocks are files of different kinds.
    other = ember.compile(gt, **(RADIX if sets is TOY else TOY))
    with pytest.raises(ember.SerializationError):
        other.ciphertexts_from(inputs)
    with pytest.raises(ember.KeyMismatchError, match="evaluation keys or"):
        client.serialize(keys.secret)


@ENCODINGS
def test_run_many(sets, rng) -> None:
    @ember.program(scheme="tfhe")
    def mx(x: ember.UInt(3), y: ember.UInt(3)):
        return (ember.lut([0, 7], out=ember.UInt(3))(x < y) & (y ^ x)) ^ x

    c = ember.compile(mx, **sets)
    keys = c.keygen()
    pairs = [tuple(int(v) for v in rng.integers(0, 8, 2)) for _ in range(3)]
    outs = c.run_many(keys.evaluation, [c.encrypt(keys, x=x, y=y) for x, y in pairs])
    assert [c.decrypt(keys, o) for o in outs] == [max(x, y) for x, y in pairs]


def test_radix_circuits_exhaustively() -> None:
    """Every pair of 4-bit inputs through every operation, and 8-bit pairs
    on a grid, on plaintexts (the circuit table op by op, every table's
    input range checked); a few pairs encrypted: the same outputs. The
    circuits' sizes are those of docs/issue16-radix-brief.md's proposal
    (8 bits: add 9 tables / 3 levels, comparisons and equality 5 / 2)."""

    @ember.program(scheme="tfhe")
    def ops4(x: ember.UInt(4), y: ember.UInt(4)):
        return x + y, x - y, x * y, x & y, x | y, x ^ y, x < y, x >= y, x == y

    @ember.program(scheme="tfhe")
    def ops4s(x: ember.Int(4), y: ember.Int(4)):
        return x - y, x * y, x < y, x > y, -x

    def want4(x, y):
        vals = (x + y, x - y, x * y, x & y, x | y, x ^ y)
        return (*(wrap(v, 4) for v in vals), int(x < y), int(x >= y), int(x == y))

    def want4s(x, y):
        vals = (wrap(x - y, 4, True), wrap(x * y, 4, True))
        return (*vals, int(x < y), int(x > y), wrap(-x, 4, True))

    for prog, lo, want in ((ops4, 0, want4), (ops4s, -8, want4s)):
        c = ember.compile(prog, **RADIX)
        assert c.stats["encoding"] == "radix"
        for x in range(lo, lo + 16):
            for y in range(lo, lo + 16):
                assert c.simulate(x=x, y=y) == want(x, y), (prog.name, x, y)
        keys = c.keygen()
        for x, y in ((lo, lo + 15), (lo + 15, lo), (lo + 5, lo + 9)):
            out = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, x=x, y=y)))
            assert out == want(x, y)

    @ember.program(scheme="tfhe")
    def ops8(x: ember.Int(8), y: ember.Int(8)):
        return x + y, x < y, x == y

    c = ember.compile(ops8, **RADIX)
    assert (c.stats["blind_rotations"], c.stats["depth"]) == (9 + 5 + 5, 3)
    grid = range(-128, 128, 7)
    for x in grid:
        for y in grid:
            assert c.simulate(x, y) == (wrap(x + y, 8, True), int(x < y), int(x == y))


@pytest.mark.parametrize("width", [7, 16, 32])
def test_wide_radix_circuits(width: int, rng) -> None:
    """Beyond four blocks the carries run in groups of three after the
    first four (one level a group): random pairs on plaintexts, signed and
    unsigned, against Python's integers."""
    for signed in (False, True):
        t = ember.Int(width) if signed else ember.UInt(width)

        def ops(x, y):
            return x + y, x - y, x * y, x < y, x >= y, x == y, x ^ y

        ops.__annotations__ = {"x": t, "y": t}  # a type chosen at run time
        c = ember.compile(ember.program(scheme="tfhe")(ops), **RADIX)
        lo, hi = t.lo, t.hi
        for _ in range(40):
            x, y = (int(v) for v in rng.integers(lo, hi, 2))
            want = (
                wrap(x + y, width, signed),
                wrap(x - y, width, signed),
                wrap(x * y, width, signed),
                int(x < y),
                int(x >= y),
                int(x == y),
                wrap(x ^ y, width, signed),
            )
            assert c.simulate(x=x, y=y) == want, (width, signed, x, y)


def test_errors_name_the_problem() -> None:
    with pytest.raises(ember.TraceError, match="annotate it with ember.UInt"):

        @ember.program(scheme="tfhe")
        def untyped(x):
            return x

    @ember.program(scheme="tfhe")
    def mixed(x: ember.UInt(4), y: ember.UInt(3)):
        return x + y

    with pytest.raises(ember.TraceError, match="the types must match"):
        ember.compile(mixed, **TOY)

    @ember.program(scheme="tfhe")
    def branch(x: ember.UInt(2)):
        return x if x < 2 else x + 1

    with pytest.raises(ember.TraceError, match="no truth value"):
        ember.compile(branch, **TOY)

    @ember.program(scheme="tfhe")
    def ok(x: ember.UInt(2)):
        return x + 1

    with pytest.raises(ember.OptionError, match="not a FHEW/TFHE parameter set"):
        ember.compile(ok, params="TOY")  # TOY needs security="none"
    with pytest.raises(ember.CompileError, match="radix blocks at 'TOY' would"):
        ember.compile(ok, encoding="radix", **TOY)
    with pytest.raises(ember.OptionError, match="encoding must be one of"):
        ember.compile(ok, encoding="blocks", **TOY)
    c = ember.compile(ok, **TOY)
    with pytest.raises(ember.InputError, match="outside ember.UInt\\(2\\)"):
        c(x=4)
    with pytest.raises(ember.ArgumentNameError, match="no input named .y."):
        c(y=1)
    with pytest.raises(ember.TraceError, match="needs 2\\^2 = 4 entries"):

        @ember.program(scheme="tfhe")
        def short(x: ember.UInt(2)):
            return ember.lut([0, 1])(x)

        ember.compile(short, **TOY)


def test_example_through_ember_run(capsys) -> None:
    """examples/integer_compare.py by `ember run`: its outputs equal the
    program run on Python's integers (max through a table over a bit)."""
    path = ROOT / "examples" / "integer_compare.py"
    argv = ["run", str(path), "--params", "TOY", "--security", "none"]
    assert cli.main([*argv, "--seed", "3"]) == 0
    assert "exact: every output equals Python's" in capsys.readouterr().out
    mod = cli._load_module(path)
    c = ember.compile(mod.compare, **TOY)
    for x, y in ((200, 7), (7, 200), (5, 5)):
        assert c(x=x, y=y) == (max(x, y), (x + y) % 256, int(x < y))
