"""Programs over encrypted integers and bits (FHEW/TFHE), issue 16.

```python
import ember

@ember.program(scheme="tfhe")
def f(x: ember.UInt(8), y: ember.UInt(8)):
    return x + y, x < y              # wraps modulo 2^8; an encrypted bit

c = ember.compile(f)                 # params="STD128" (OpenFHE's 128-bit set)
print(c(x=200, y=100))               # (44, 0): keys once, encrypt, run, decrypt
keys = c.keygen()
out = c.run(keys.evaluation, c.encrypt(keys, x=3, y=5))
print(c.decrypt(keys, out))          # (8, 1)
```

Types: ``ember.UInt(k)`` and ``ember.Int(k)`` (two's complement) of 1 to
32 bits, ``ember.Bit`` (= ``UInt(1)``). Operations, with each other (same
type) and with Python ints: ``+ - *`` modulo 2^k (as tfhe-rs's FheUint),
``& | ^ ~``, comparisons giving an encrypted bit, and ``ember.lut(table)(x)``
for a table of 2^k entries (indexed by x's bit pattern). The compiler
(fhe-to-lwe) turns each operation into a circuit of bootstrapped gates over
the integers' bits; the runtime runs the circuit on the CPU, or on the GPU
with each level's bootstraps in one batch (target="cuda").

At ``params="STD128_4BIT_MR"`` (tables over Z_16 with failure 2^-61.7)
integers are radix blocks instead, as in tfhe-rs: 2 message bits per
block, each operation a few programmable bootstraps (an 8-bit add is 9
tables over 3 levels, a comparison 5 over 2); ``encoding="bits"`` keeps
gate circuits there. ``c.simulate(x=..)`` runs the circuit on plaintexts
(no keys, no noise), checking every table's input range: a fast exact
check of what the compiler built.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ember import _mlir, _toolchain
from ember.errors import (
    InputError,
    KeyMismatchError,
    OptionError,
    SecurityError,
    SerializationError,
    TraceError,
    runtime_errors,
    user_position,
)
from ember.options import CompileOptions
from ember.tracing import bind_names

MAX_WIDTH = 32
MAX_LUT_WIDTH = 12
# The 128-bit sets (ember/lwe_params.h): GINX (STD128, STD128Q), AP/DM
# (STD128_AP), the 4-bit sets by gadget and by modulus raising; and the
# insecure test sets, accepted with security="none".
TFHE_PARAMS = ("STD128", "STD128Q", "STD128_AP", "STD128_4BIT", "STD128_4BIT_MR")
TFHE_TEST_PARAMS = ("TOY", "TOY_AP", "TOY_MR", "TOY_4BIT_MR")
# Saved programs: format 1 (gate circuits) and 2 (radix circuits too).
SAVE_FORMAT = 2
ENCODINGS = ("auto", "bits", "radix")


@dataclass(frozen=True)
class IntSpec:
    """The type of an encrypted integer input: ``ember.UInt(8)``."""

    width: int
    signed: bool

    def __post_init__(self) -> None:
        if not isinstance(self.width, int) or not 1 <= self.width <= MAX_WIDTH:
            raise TraceError(
                f"an encrypted integer has 1 to {MAX_WIDTH} bits, got {self.width!r}"
            )

    @property
    def lo(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        """One past the largest value."""
        return (1 << (self.width - 1)) if self.signed else (1 << self.width)

    def wrap(self, v: int) -> int:
        """v modulo 2^width, as a value of the type."""
        v &= (1 << self.width) - 1
        return v - (1 << self.width) if self.signed and v >= self.hi else v

    def __repr__(self) -> str:
        if self.width == 1 and not self.signed:
            return "ember.Bit"
        return f"ember.{'Int' if self.signed else 'UInt'}({self.width})"


def UInt(width: int) -> IntSpec:  # noqa: N802 - a type's name
    """An encrypted unsigned integer of ``width`` bits (1 to 32)."""
    return IntSpec(width, False)


def Int(width: int) -> IntSpec:  # noqa: N802 - a type's name
    """An encrypted signed (two's complement) integer of ``width`` bits."""
    return IntSpec(width, True)


Bit = IntSpec(1, False)


class _Tracer:
    def __init__(self, program: TfheProgram) -> None:
        self.emitter = _mlir.IntFunctionEmitter(program.name, program.location)


class EncryptedInt:
    """A traced encrypted integer (inside an ``@ember.program(scheme="tfhe")``)."""

    def __init__(self, tracer: _Tracer, value: _mlir.IntValue) -> None:
        self._tracer = tracer
        self._value = value

    @property
    def spec(self) -> IntSpec:
        return IntSpec(self._value.width, self._value.signed)

    def _operand(self, other: object, op: str) -> _mlir.IntValue:
        if isinstance(other, EncryptedInt):
            if other._tracer is not self._tracer:
                raise TraceError(f"{op}: the operand belongs to another trace")
            if other.spec != self.spec:
                raise TraceError(
                    f"{op} of {self.spec!r} and {other.spec!r}: the types "
                    "must match (convert with ember.lut)"
                )
            return other._value
        if isinstance(other, bool | int | np.integer):
            return self._tracer.emitter.constant(
                self.spec.wrap(int(other)),
                self.spec.width,
                self.spec.signed,
                user_position(),
            )
        raise TraceError(
            f"{op} of an encrypted {self.spec!r} and {type(other).__name__}: "
            "expected an encrypted integer of the same type or an int"
        )

    def _wrap(self, value: _mlir.IntValue) -> EncryptedInt:
        return EncryptedInt(self._tracer, value)

    def _binary(self, op: str, other: object, reflected: bool = False) -> EncryptedInt:
        b = self._operand(other, op)
        a, b = (b, self._value) if reflected else (self._value, b)
        return self._wrap(self._tracer.emitter.binary(op, a, b, user_position()))

    def __add__(self, o: object) -> EncryptedInt:
        return self._binary("int_add", o)

    def __radd__(self, o: object) -> EncryptedInt:
        return self._binary("int_add", o, True)

    def __sub__(self, o: object) -> EncryptedInt:
        return self._binary("int_sub", o)

    def __rsub__(self, o: object) -> EncryptedInt:
        return self._binary("int_sub", o, True)

    def __mul__(self, o: object) -> EncryptedInt:
        return self._binary("int_mul", o)

    def __rmul__(self, o: object) -> EncryptedInt:
        return self._binary("int_mul", o, True)

    def __and__(self, o: object) -> EncryptedInt:
        return self._binary("int_and", o)

    __rand__ = __and__

    def __or__(self, o: object) -> EncryptedInt:
        return self._binary("int_or", o)

    __ror__ = __or__

    def __xor__(self, o: object) -> EncryptedInt:
        return self._binary("int_xor", o)

    __rxor__ = __xor__

    def __invert__(self) -> EncryptedInt:
        return self._wrap(
            self._tracer.emitter.bitwise_not(self._value, user_position())
        )

    def __neg__(self) -> EncryptedInt:
        return self._binary("int_sub", 0, True)

    def _compare(self, predicate: str, other: object) -> EncryptedInt:
        b = self._operand(other, predicate)
        return self._wrap(
            self._tracer.emitter.compare(predicate, self._value, b, user_position())
        )

    def __lt__(self, o: object) -> EncryptedInt:
        return self._compare("lt", o)

    def __le__(self, o: object) -> EncryptedInt:
        return self._compare("le", o)

    def __gt__(self, o: object) -> EncryptedInt:
        return self._compare("gt", o)

    def __ge__(self, o: object) -> EncryptedInt:
        return self._compare("ge", o)

    def __eq__(self, o: object) -> EncryptedInt:  # type: ignore[override]
        return self._compare("eq", o)

    def __ne__(self, o: object) -> EncryptedInt:  # type: ignore[override]
        return self._compare("ne", o)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TraceError(
            "an encrypted integer has no truth value while tracing (branches "
            "cannot depend on it): compute both sides and combine them, e.g. "
            "with ember.lut or arithmetic on an encrypted bit"
        )

    def __repr__(self) -> str:
        return f"<encrypted {self.spec!r} {self._value.name}>"


class _Lut:
    def __init__(self, table: Sequence[int], out: IntSpec | None) -> None:
        self.table = [int(t) for t in table]
        self.out = out

    def __call__(self, x: object) -> EncryptedInt | int:
        if isinstance(x, int | np.integer):  # the plain function (a reference)
            return self.table[int(x) % len(self.table)]
        if not isinstance(x, EncryptedInt):
            raise TraceError(
                "ember.lut(...) applies to an encrypted integer, got "
                + type(x).__name__
            )
        spec = x.spec
        if spec.width > MAX_LUT_WIDTH:
            raise TraceError(
                f"ember.lut over {spec!r}: at most {MAX_LUT_WIDTH} input bits"
            )
        if len(self.table) != 1 << spec.width:
            raise TraceError(
                f"ember.lut over {spec!r} needs 2^{spec.width} = "
                f"{1 << spec.width} entries, got {len(self.table)}"
            )
        out = self.out
        if out is None:  # the input's type if every entry fits, else unsigned
            if all(spec.lo <= t < spec.hi for t in self.table):
                out = spec
            else:
                top = max(self.table)
                if min(self.table) < 0:
                    raise TraceError(
                        "ember.lut: negative entries need an explicit signed "
                        "output type (out=ember.Int(k))"
                    )
                out = IntSpec(max(1, top.bit_length()), False)
        for i, t in enumerate(self.table):
            if not out.lo <= t < out.hi:
                raise TraceError(f"ember.lut: entry {i} = {t} does not fit {out!r}")
        value = x._tracer.emitter.lut(
            x._value, self.table, out.width, out.signed, user_position()
        )
        return x._wrap(value)


def lut(table: Sequence[int], out: IntSpec | None = None) -> _Lut:
    """``ember.lut(table)(x)``: table[x] for an encrypted integer x of k
    bits; the table has 2^k entries, indexed by x's bit pattern (for a
    signed x, entry i is for the value i - 2^k when i >= 2^(k-1)). The
    output has x's type when every entry fits it, else the smallest
    unsigned type that holds them, or ``out``."""
    if isinstance(table, np.ndarray):
        table = table.tolist()
    if not isinstance(table, Sequence) or not all(
        isinstance(t, int | np.integer) for t in table
    ):
        raise TraceError("ember.lut takes a sequence of ints")
    return _Lut(table, out)


@dataclass
class TfheTrace:
    mlir: str
    outputs: list[IntSpec]


class TfheProgram:
    """A function over encrypted integers (``@ember.program(scheme="tfhe")``)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.name = fn.__name__
        code = fn.__code__
        self.filename, self.lineno = code.co_filename, code.co_firstlineno
        self.location = (self.filename, self.lineno, 1)
        self.inputs: dict[str, IntSpec] = {}
        try:  # string annotations (from __future__ import annotations) too
            signature = inspect.signature(fn, eval_str=True)
        except Exception as err:  # noqa: BLE001 - any error of the user's code
            raise TraceError(
                f"the annotations of {self.name} do not evaluate: {err}",
                self.filename,
                self.lineno,
            ) from err
        for p in signature.parameters.values():
            if not isinstance(p.annotation, IntSpec):
                raise TraceError(
                    f"input '{p.name}' of {self.name}: annotate it with "
                    "ember.UInt(k), ember.Int(k) or ember.Bit",
                    self.filename,
                    self.lineno,
                )
            self.inputs[p.name] = p.annotation

    def trace(self) -> TfheTrace:
        tracer = _Tracer(self)
        args = [
            EncryptedInt(
                tracer,
                tracer.emitter.argument(i, s.width, s.signed, self.location, name),
            )
            for i, (name, s) in enumerate(self.inputs.items())
        ]
        result = self.fn(*args)
        results = result if isinstance(result, tuple) else (result,)
        values = []
        for r in results:
            if isinstance(r, bool | int | np.integer):
                raise TraceError(
                    f"{self.name} returns the constant {int(r)}: return encrypted "
                    "values (computed from the inputs)"
                )
            if not isinstance(r, EncryptedInt) or r._tracer is not tracer:
                raise TraceError(
                    f"{self.name} returns {type(r).__name__}: expected encrypted "
                    "integers of this program"
                )
            values.append(r._value)
        if not values:
            raise TraceError(f"{self.name} returns nothing")
        return TfheTrace(
            tracer.emitter.finish(values, user_position()),
            [IntSpec(v.width, v.signed) for v in values],
        )

    def __repr__(self) -> str:
        args = ", ".join(f"{k}: {v!r}" for k, v in self.inputs.items())
        return f"<ember tfhe program {self.name}({args})>"


@dataclass
class TfheKeys:
    """The client's keys: ``secret`` (stays with the client) and
    ``evaluation`` (what the server needs)."""

    secret: Any
    evaluation: Any


@dataclass
class TfheCiphertexts:
    """Encrypted integers as their bits (LWE ciphertexts at q), or their
    radix blocks (LWE ciphertexts at Q) for a radix program, in program
    order."""

    bits: list[Any]


class TfheCompiled:
    """A compiled TFHE program: its circuit and interface."""

    def __init__(
        self,
        name: str,
        inputs: dict[str, IntSpec],
        circuit: dict,
        target: str,
        ir: dict[str, str],
    ) -> None:
        self.name = name
        self.inputs = dict(inputs)
        self.outputs = [IntSpec(o["width"], o["signed"]) for o in circuit["outputs"]]
        self.target = target
        self.circuit_json = circuit
        self._ir = ir
        er = _toolchain.runtime()
        self._er = er
        self.radix = circuit.get("encoding") == "radix"
        self.block_modulus = int(circuit.get("block_modulus", 16))
        with runtime_errors("loading the circuit"):
            self.params = er.tfhe.Params.named(circuit["params"])
            ops = np.array(circuit["ops"], dtype=np.int32).reshape(-1, 5)
            extra = {}
            if self.radix:
                extra = {
                    "tables": circuit["tables"],
                    "forms": circuit["forms"],
                    "radix": True,
                    "block_modulus": self.block_modulus,
                }
            self.circuit = er.tfhe.Circuit(
                circuit["input_bits"],
                circuit["wires"],
                ops,
                circuit["output_wires"],
                **extra,
            )
        keys = ("blind_rotations", "key_switches", "depth", "log2_gate_failure")
        if self.radix:
            keys += ("log2_pbs_failure_worst",)
        self.stats = {k: circuit[k] for k in keys}
        self.stats["encoding"] = "radix" if self.radix else "bits"
        self.stats["gates"] = len(circuit["ops"])
        self.stats.update(circuit["keys"])
        self._keys: TfheKeys | None = None
        self._gpu: dict[int, Any] = {}

    def ir(self, stage: str = "lwe") -> str:
        """The IR the user can inspect: "fhe" (traced) or "lwe" (circuit)."""
        if stage not in self._ir:
            raise OptionError(f"unknown stage {stage!r} (expected {sorted(self._ir)})")
        return self._ir[stage]

    def save(self, folder: str | Path) -> Path:
        """Writes the program (its interface and circuit, no key) to
        ``folder/<name>.tfhe.json``; :func:`ember.load` reads it back with
        the runtime only."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        body = {
            "name": self.name,
            "inputs": [[k, v.width, v.signed] for k, v in self.inputs.items()],
            "circuit": self.circuit_json,
        }
        text = json.dumps(body, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()
        path = folder / f"{self.name}.tfhe.json"
        fmt = 2 if self.radix else 1  # older readers keep gate circuits
        path.write_text(json.dumps({"format": fmt, "sha256": digest, "program": body}))
        return path

    def serialize(self, obj: Any) -> bytes:
        """Bytes of evaluation keys (what the server receives) or of
        :class:`TfheCiphertexts` (the runtime's format, with a checksum)."""
        tfhe = self._er.tfhe
        with runtime_errors("serialize"):
            if isinstance(obj, TfheCiphertexts):
                return tfhe.serialize_ciphertexts(self.params, obj.bits)
            if isinstance(obj, tfhe.EvaluationKeys):
                return tfhe.serialize_evaluation_keys(obj)
        raise KeyMismatchError(
            "serialize takes evaluation keys or TfheCiphertexts, got "
            + type(obj).__name__
        )

    def evaluation_keys_from(self, data: bytes) -> Any:
        """Evaluation keys from :meth:`serialize`'s bytes (checked: the
        program's parameter set, every word)."""
        with runtime_errors("loading evaluation keys"):
            keys = self._er.tfhe.deserialize_evaluation_keys(data)
        if keys.params.name != self.params.name:
            raise KeyMismatchError(
                f"these keys are for parameter set {keys.params.name}, the "
                f"program {self.name} uses {self.params.name}"
            )
        return keys

    def ciphertexts_from(self, data: bytes) -> TfheCiphertexts:
        """Ciphertexts from :meth:`serialize`'s bytes: bits, or radix
        blocks for a radix program (a file of the other kind is refused)."""
        with runtime_errors("loading ciphertexts"):
            return TfheCiphertexts(
                self._er.tfhe.deserialize_ciphertexts(
                    self.params, data, blocks=self.radix
                )
            )

    def keygen(self) -> TfheKeys:
        with runtime_errors("key generation"):
            sk = self._er.tfhe.SecretKey(self.params)
            return TfheKeys(sk, self._er.tfhe.EvaluationKeys(sk))

    def encrypt(self, keys: TfheKeys, *args: Any, **values: Any) -> TfheCiphertexts:
        named = self._bind(args, values)
        bits = []
        for name, spec in self.inputs.items():
            v = named[name]
            if isinstance(v, bool | np.bool_):
                v = int(v)
            if not isinstance(v, int | np.integer):
                raise InputError(
                    f"input '{name}' is {spec!r}: expected an int, got "
                    + type(v).__name__
                )
            v = int(v)
            if not spec.lo <= v < spec.hi:
                raise InputError(
                    f"input '{name}' = {v} is outside {spec!r} "
                    f"([{spec.lo}, {spec.hi - 1}])"
                )
            with runtime_errors("encryption"):
                for m in self._pieces(spec, v):
                    bits.append(
                        keys.secret.encrypt_block(m, self.block_modulus)
                        if self.radix
                        else keys.secret.encrypt(m, 4)
                    )
        return TfheCiphertexts(bits)

    def run(self, evaluation: Any, cts: TfheCiphertexts) -> TfheCiphertexts:
        if not isinstance(cts, TfheCiphertexts):
            raise KeyMismatchError(
                f"run takes the TfheCiphertexts of {self.name}.encrypt, got "
                f"{type(cts).__name__}"
            )
        with runtime_errors("running the circuit"):
            if self.target == "cuda":
                gpu = self._gpu_evaluator(evaluation)
                return TfheCiphertexts(gpu.run(self.circuit, cts.bits))
            ev = self._er.tfhe.Evaluator(evaluation)
            return TfheCiphertexts(
                self._er.tfhe.run_circuit(ev, self.circuit, cts.bits)
            )

    def run_many(
        self, evaluation: Any, runs: Sequence[TfheCiphertexts]
    ) -> list[TfheCiphertexts]:
        """Several runs at once: on the GPU each level's bootstraps of every
        run go in one batch (a small circuit's levels alone cannot fill
        it); on the CPU the runs follow each other."""
        if self.target != "cuda":
            return [self.run(evaluation, cts) for cts in runs]
        for cts in runs:
            if not isinstance(cts, TfheCiphertexts):
                raise KeyMismatchError(
                    f"run_many takes TfheCiphertexts of {self.name}.encrypt, got "
                    + type(cts).__name__
                )
        with runtime_errors("running the circuit"):
            gpu = self._gpu_evaluator(evaluation)
            outs = gpu.run_many(self.circuit, [cts.bits for cts in runs])
        return [TfheCiphertexts(o) for o in outs]

    def _gpu_evaluator(self, evaluation: Any) -> Any:
        """The device copy of these keys (uploaded once; the entry holds the
        keys, so their id cannot be reused while it lives)."""
        entry = self._gpu.get(id(evaluation))
        if entry is None or entry[0] is not evaluation:
            er = _toolchain.cuda_runtime()
            entry = (evaluation, er.tfhe.CudaEvaluator(evaluation))
            self._gpu[id(evaluation)] = entry
        return entry[1]

    def decrypt(self, keys: TfheKeys, cts: TfheCiphertexts) -> int | tuple[int, ...]:
        values, at = [], 0
        with runtime_errors("decryption"):
            for spec in self.outputs:
                wires = cts.bits[at : at + len(self._pieces(spec, 0))]
                at += len(wires)
                values.append(
                    self._value(
                        spec,
                        [
                            keys.secret.decrypt_block(ct, self.block_modulus)
                            if self.radix
                            else keys.secret.decrypt(ct, 4)
                            for ct in wires
                        ],
                    )
                )
        return values[0] if len(values) == 1 else tuple(values)

    def _pieces(self, spec: IntSpec, v: int) -> list[int]:
        """The wire values of an integer, least significant first: its bits,
        or its radix blocks of 2 bits (the top one 1 bit for odd widths)."""
        step = 2 if self.radix else 1
        u = v & ((1 << spec.width) - 1)
        return [(u >> i) & ((1 << step) - 1) for i in range(0, spec.width, step)]

    def _value(self, spec: IntSpec, pieces: Sequence[int]) -> int:
        """The integer of wire values (a block's message part: its value
        modulo 4), inverse of :meth:`_pieces`."""
        step = 2 if self.radix else 1
        u = sum((m % (1 << step)) << (step * k) for k, m in enumerate(pieces))
        return spec.wrap(u)

    def simulate(self, *args: Any, **values: Any) -> int | tuple[int, ...]:
        """The circuit on plaintexts: no keys, no noise, exact. Gates on
        bits; for radix, linear forms modulo 2t, and a table whose input
        lies outside [0, t) raises (what the compiler's range tracking
        promises never happens). The same result as ``c(...)`` unless a
        bootstrap fails."""
        named = self._bind(args, values)
        wires: list[int] = []
        for name, spec in self.inputs.items():
            wires += self._pieces(spec, int(named[name]))
        c = self.circuit_json
        t = self.block_modulus
        gates = {  # codes 0-5: Gate's order
            0: lambda a, b: a & b,
            1: lambda a, b: a | b,
            2: lambda a, b: 1 - (a & b),
            3: lambda a, b: 1 - (a | b),
            4: lambda a, b: a ^ b,
            5: lambda a, b: 1 - (a ^ b),
        }
        wires += [0] * (c["wires"] - len(wires))
        for code, out, a, b, k in c["ops"]:
            if code in gates:
                wires[out] = gates[code](wires[a], wires[b])
            elif code == 6:
                wires[out] = 1 - wires[a]
            elif code == 7:
                wires[out] = wires[b] if wires[a] else wires[k]
            elif code in (8, 11):
                wires[out] = a
            elif code == 9:
                x, y, const = c["forms"][k]
                v = x * wires[a] + (y * wires[b] if b >= 0 else 0) + const
                wires[out] = v % (2 * t)
            elif code == 10:
                v = wires[a]
                if not 0 <= v < t:
                    raise InputError(
                        f"simulate: op writing wire {out} reads a block of value "
                        f"{v}, outside [0, {t}) (a compiler bug)"
                    )
                wires[out] = c["tables"][b][v]
            else:
                raise SerializationError(f"simulate: unknown op code {code}")
        results, at = [], 0
        for spec in self.outputs:
            n = len(self._pieces(spec, 0))
            outs = c["output_wires"][at : at + n]
            at += n
            results.append(self._value(spec, [wires[w] for w in outs]))
        return results[0] if len(results) == 1 else tuple(results)

    def __call__(self, *args: Any, **values: Any) -> int | tuple[int, ...]:
        if self._keys is None:
            self._keys = self.keygen()
        cts = self.encrypt(self._keys, *args, **values)
        return self.decrypt(self._keys, self.run(self._keys.evaluation, cts))

    def _bind(self, args: Sequence[Any], values: dict[str, Any]) -> dict[str, Any]:
        return bind_names(f"program {self.name}", list(self.inputs), args, values)

    def __repr__(self) -> str:
        s = self.stats
        return (
            f"<ember tfhe program {self.name} ({self.params.name}, {self.target}, "
            f"{s['encoding']}): {s['gates']} ops, {s['blind_rotations']} blind "
            f"rotations, depth {s['depth']}>"
        )


def compile_tfhe(
    program: TfheProgram, target: str, opts: CompileOptions
) -> TfheCompiled:
    """fhe-to-lwe and the circuit table (see ember.compile)."""
    params = opts.params or "STD128"
    insecure = str(opts.security) == "none"
    if params not in TFHE_PARAMS and not (insecure and params in TFHE_TEST_PARAMS):
        raise OptionError(
            f"params={params!r} is not a FHEW/TFHE parameter set (expected one "
            f"of {', '.join(TFHE_PARAMS)}; {', '.join(TFHE_TEST_PARAMS)} with "
            "security='none')"
        )
    if target == "cuda":
        _toolchain.cuda_runtime()
    trace = program.trace()
    fallback = (program.filename, program.lineno)
    with tempfile.TemporaryDirectory(prefix=f"ember-{program.name}-") as tmp:
        folder = Path(tmp)
        fhe = folder / f"{program.name}.fhe.mlir"
        fhe.write_text(trace.mlir)
        lwe = folder / f"{program.name}.lwe.mlir"
        encoding = opts.encoding or "auto"
        if encoding not in ENCODINGS:
            raise OptionError(
                f"encoding={encoding!r}: expected one of {', '.join(ENCODINGS)}"
            )
        option = f"params={params} encoding={encoding}" + (
            " insecure=true" if insecure else ""
        )
        _toolchain.run_opt(
            [f"--fhe-to-lwe={option}", "--cse", str(fhe), "-o", str(lwe)],
            folder,
            program.name,
            opts,
            fallback,
        )
        out = _toolchain.run_translate(
            ["--emit-tfhe-circuit", str(lwe)], folder, program.name, opts, fallback
        )
        circuit = json.loads(out.stdout)
        ir = {"fhe": trace.mlir, "lwe": lwe.read_text()}
    return TfheCompiled(program.name, program.inputs, circuit, target, ir)


def load_tfhe(
    path: Path, target: str = "cpu", security: int | str = 128
) -> TfheCompiled:
    """A program written by :meth:`TfheCompiled.save` (its hash checked);
    an insecure parameter set only with ``security="none"``."""
    try:
        meta = json.loads(path.read_text())
        body = meta["program"]
        text = json.dumps(body, sort_keys=True)
        if meta.get("format") not in (1, SAVE_FORMAT):
            raise SerializationError(
                f"{path}: format {meta.get('format')}, this Ember reads 1 to "
                f"{SAVE_FORMAT}"
            )
        if hashlib.sha256(text.encode()).hexdigest() != meta.get("sha256"):
            raise SerializationError(f"{path}: the program does not match its hash")
        inputs = {n: IntSpec(int(w), bool(sg)) for n, w, sg in body["inputs"]}
        circuit = body["circuit"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SerializationError(f"{path}: not a saved TFHE program ({err})") from err
    if circuit.get("params") not in TFHE_PARAMS and str(security) != "none":
        raise SecurityError(
            f"{path}: parameter set {circuit.get('params')!r} is not a 128-bit "
            "set; load it with security='none' (tests only)"
        )
    if target not in ("cpu", "cuda"):
        raise OptionError(f"unknown target {target!r} (expected 'cpu' or 'cuda')")
    if target == "cuda":
        _toolchain.cuda_runtime()
    return TfheCompiled(body["name"], inputs, circuit, target, {})
