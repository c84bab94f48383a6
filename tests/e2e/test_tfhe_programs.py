"""@ember.program(scheme="tfhe"): encrypted integers and bits compiled into
bootstrapped-gate circuits, run on the CPU, decrypted and compared with
Python's integer arithmetic (modulo 2^k, two's complement for ember.Int) on
fresh random inputs. Most programs run at OpenFHE's TOY sizes (the
insecure test mode, named: security="none"), which bootstrap in about a
millisecond; one adder and comparison runs at STD128, the real set."""

from __future__ import annotations

from pathlib import Path

import ember
import pytest
from ember import cli

ROOT = Path(__file__).resolve().parents[2]

TOY = {"params": "TOY", "security": "none"}


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


def test_unsigned_arithmetic(rng) -> None:
    @ember.program(scheme="tfhe")
    def arith(x: ember.UInt(6), y: ember.UInt(6)):
        return x + y, x - y, x * y, x * 5 + 3, 7 - x

    c = ember.compile(arith, **TOY)
    for _ in range(4):
        x, y = (int(v) for v in rng.integers(0, 64, 2))
        want = (x + y, x - y, x * y, 5 * x + 3, 7 - x)
        assert c(x, y) == tuple(wrap(v, 6) for v in want), (x, y)


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


def test_signed_comparisons(rng) -> None:
    @ember.program(scheme="tfhe")
    def cmp(a: ember.Int(5), b: ember.Int(5)):
        return a < b, a <= b, a > b, a >= b, a == b, a != b, a - b

    c = ember.compile(cmp, **TOY)
    cases = [(-16, 15), (15, -16), (-1, -1), (0, -1)]
    cases += [tuple(int(v) for v in rng.integers(-16, 16, 2)) for _ in range(3)]
    for a, b in cases:
        want = (a < b, a <= b, a > b, a >= b, a == b, a != b)
        assert c(a=a, b=b) == (*(int(w) for w in want), wrap(a - b, 5, True)), (a, b)


def test_bitwise_and_bits(rng) -> None:
    @ember.program(scheme="tfhe")
    def bits(x: ember.UInt(4), y: ember.UInt(4), s: ember.Bit):
        return x & y, x | y, x ^ y, ~x, (x ^ 0b1010) & 0b0110, s ^ 1

    c = ember.compile(bits, **TOY)
    for _ in range(3):
        x, y = (int(v) for v in rng.integers(0, 16, 2))
        s = int(rng.integers(0, 2))
        want = (x & y, x | y, x ^ y, 15 - x, (x ^ 10) & 6, 1 - s)
        assert c(x=x, y=y, s=s) == want


def test_lookup_tables(rng) -> None:
    table = [int(v) for v in rng.integers(0, 16, 16)]
    square = [(i * i) % 8 for i in range(8)]

    @ember.program(scheme="tfhe")
    def luts(x: ember.UInt(4), z: ember.Int(3)):
        return ember.lut(table)(x), ember.lut(square)(z)

    c = ember.compile(luts, **TOY)
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


def test_save_and_load(tmp_path) -> None:
    @ember.program(scheme="tfhe")
    def mac(a: ember.Int(4), b: ember.Int(4), c: ember.Int(4)):
        return a * b + c

    c = ember.compile(mac, **TOY)
    path = c.save(tmp_path / "mac")
    with pytest.raises(ember.SecurityError, match="not a 128-bit set"):
        ember.load(tmp_path / "mac")
    loaded = ember.load(tmp_path / "mac", security="none")
    assert loaded.inputs == c.inputs and loaded.outputs == c.outputs
    keys = c.keygen()  # keys of the compiled program run the loaded one
    out = loaded.run(keys.evaluation, loaded.encrypt(keys, a=-3, b=5, c=7))
    assert loaded.decrypt(keys, out) == wrap(-3 * 5 + 7, 4, True)
    path.write_text(path.read_text().replace('"mac"', '"max"'))
    with pytest.raises(ember.SerializationError, match="does not match its hash"):
        ember.load(tmp_path / "mac", security="none")


def test_client_and_server_exchange_bytes(tmp_path) -> None:
    """The client sends evaluation keys and ciphertexts as bytes; the server
    (the program loaded from disk) runs on them and returns bytes."""

    @ember.program(scheme="tfhe")
    def gt(x: ember.UInt(3), y: ember.UInt(3)):
        return x > y

    client = ember.compile(gt, **TOY)
    client.save(tmp_path)
    keys = client.keygen()
    evk = client.serialize(keys.evaluation)
    inputs = client.serialize(client.encrypt(keys, x=6, y=5))
    server = ember.load(tmp_path, security="none")
    out = server.run(server.evaluation_keys_from(evk), server.ciphertexts_from(inputs))
    assert client.decrypt(keys, client.ciphertexts_from(server.serialize(out))) == 1
    with pytest.raises(ember.SerializationError, match="checksum mismatch"):
        server.ciphertexts_from(inputs[:-1] + bytes([inputs[-1] ^ 1]))
    with pytest.raises(ember.KeyMismatchError, match="evaluation keys or"):
        client.serialize(keys.secret)


def test_run_many(rng) -> None:
    @ember.program(scheme="tfhe")
    def mx(x: ember.UInt(3), y: ember.UInt(3)):
        return (ember.lut([0, 7], out=ember.UInt(3))(x < y) & (y ^ x)) ^ x

    c = ember.compile(mx, **TOY)
    keys = c.keygen()
    pairs = [tuple(int(v) for v in rng.integers(0, 8, 2)) for _ in range(3)]
    outs = c.run_many(keys.evaluation, [c.encrypt(keys, x=x, y=y) for x, y in pairs])
    assert [c.decrypt(keys, o) for o in outs] == [max(x, y) for x, y in pairs]


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
