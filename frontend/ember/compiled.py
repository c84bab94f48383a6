"""``ember.compile``, the compiled program, its keys and ``ember.load``.

A compiled program is a folder (the artifact of compiler/tools/ember-compile
plus ``ember.json``, the frontend's interface: input names, outputs, target,
options, the SHA-256 of every file and the program hash over all of it).
Running it needs only the runtime module: the shared library is built from
the checked source into a cache keyed by content (``_toolchain.build_library``),
never taken from the folder.

Client and server: :meth:`Compiled.keygen` makes the secret key, the public
key and exactly the evaluation keys of the manifest; the server runs
:meth:`Compiled.run` with the evaluation keys and ciphertexts only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ember import _toolchain
from ember.errors import (
    ArgumentNameError,
    EmberError,
    InputError,
    KeyMismatchError,
    NotAvailableError,
    OptionError,
    SerializationError,
    runtime_errors,
)
from ember.options import CompileOptions
from ember.ranges import check_input, from_inputset
from ember.tracing import Program, _integers, bind_inputs, bind_names

FORMAT = 3  # 2: checksums of every file, no library; 3: the data file
STAGES = ("fhe", "ckks", "rns", "kernel")
TARGETS = ("cpu", "cuda")
# What the program hash covers: the traced program, the kernel IR, the
# emitted source, the manifest and the data file (constants' values).
FILES = ("fhe", "kernel", "source", "manifest", "data")
SAVED_STAGES = ("ckks", "rns", "cost")  # written by save(), checked by load()

Progress = Callable[[int, int], None]


# --- keys and ciphertexts ------------------------------------------------------
class SecretKey:
    """The client's secret key (never sent to the server)."""

    def __init__(self, generator: Any, program_hash: str) -> None:
        self._generator = generator  # owns the key
        self.key = generator.secret_key()
        self.program_hash = program_hash


class EvaluationKeys:
    """The public evaluation keys of one program: exactly the relinearization,
    Galois and (when it bootstraps) encapsulation keys its manifest lists.
    What the server receives."""

    def __init__(self, keys: Any, program_hash: str, ctx: Any) -> None:
        self.keys = keys
        self.program_hash = program_hash
        self._ctx = ctx

    def serialize(self) -> bytes:
        """The keys as bytes (ember_runtime's format, with a checksum)."""
        er = _toolchain.runtime()
        with runtime_errors("serialize"):
            return er.serialize(self._ctx, self.keys)


@dataclass
class Keys:
    """Keys of one program. ``secret`` stays with the client; ``public``
    encrypts; ``evaluation`` is what the server runs the program with."""

    secret: SecretKey
    public: Any
    evaluation: EvaluationKeys
    program_hash: str


class Ciphertexts(Sequence[Any]):
    """Encrypted inputs or outputs of one program, in interface order."""

    def __init__(self, cts: list[Any], program_hash: str, role: str) -> None:
        self.cts = cts
        self.program_hash = program_hash
        self.role = role

    def __len__(self) -> int:
        return len(self.cts)

    def __getitem__(self, i: Any) -> Any:
        return self.cts[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.cts)

    def __repr__(self) -> str:
        where = " on the GPU" if self.on_device else ""
        return f"<ember.Ciphertexts {self.role}{where}: {len(self.cts)}>"

    @property
    def on_device(self) -> bool:
        """Whether these live in GPU memory (:meth:`Compiled.to_device`)."""
        return bool(self.cts) and type(self.cts[0]).__name__ == "CudaCiphertext"


# --- the compiled program --------------------------------------------------------
class Compiled:
    """A compiled Ember program (see the module docstring).

    ``security`` is the security its contexts are built with: what
    ``ember.compile`` or ``ember.load`` was asked for, never what the
    manifest says.
    """

    def __init__(
        self,
        folder: Path,
        meta: dict[str, Any],
        keep: Any = None,
        security: int | str = 128,
    ) -> None:
        self._folder = folder
        self._keep = keep  # a TemporaryDirectory that owns `folder`
        self.meta = meta
        self.name: str = meta["name"]
        self.target: str = meta["target"]
        self.slots: int = meta["slots"]
        self.inputs: tuple[str, ...] = tuple(meta["inputs"])
        self.program_hash: str = meta["hash"]
        self.options = CompileOptions(**meta["options"])
        self.security = security
        self.manifest: dict[str, Any] = json.loads(self._read("manifest"))
        self._ir: dict[str, str] = {}
        self._ctx: Any = None
        self._library: Any = None
        self._keys: Keys | None = None
        self.ir_after_all: str | None = None
        # target="cuda": the GPU context, and the evaluation keys uploaded
        # to it (with the EvaluationKeys object they came from).
        self._device: Any = None
        self._device_keys: tuple[Any, Any] | None = None
        self._peers: list[Any] = []  # devices 1.. of a multi-GPU program
        self._peer_keys: tuple[Any, list[Any]] | None = None
        #: target="cuda": run as one CUDA Graph (captured on the first run,
        #: replayed after); False enqueues the steps one by one.
        self.graphs = True
        #: target="cuda": every buffer of the memory plan a view of one
        #: arena of the plan's size (allocated by the first run); False
        #: takes each buffer from the device's pool.
        self.arena = True
        #: target="cuda", with graphs: the graph reads the input
        #: ciphertexts and writes the outputs where they are (its nodes
        #: pointed at them each run); False copies them into and out of the
        #: graph's buffers each run.
        self.in_place = True
        #: target="cuda", with graphs and the arena: the graph's steps
        #: follow only the steps whose memory they read or overwrite, so
        #: that independent steps run side by side (several GPUs: one DAG
        #: per device); False captures them as one chain in program order.
        self.concurrent = True
        #: target="cuda", with concurrent: the kernels the rest of the
        #: graph waits on run at a raised priority (one GPU: those on its
        #: longest chain; several: those each GPU's sends follow), so that
        #: independent work fills the GPU around them; False leaves the
        #: order to the graph (``ember run --no-prioritized``).
        self.prioritized = True
        #: target="cuda": times of the last run, ms: "upload", "run" (GPU,
        #: CUDA events), "download"; "kernels": launches of a graph replay;
        #: "path_nodes": the graph's nodes on its longest chain (several
        #: GPUs: the longest of the devices' graphs' chains).
        self.last_run: dict[str, float] = {}

    def __repr__(self) -> str:
        p = self.manifest["params"]
        # L: the levels (a pair of primes each above q_0 and the base pair
        # at 32-bit words).
        levels = len(p["q"]) - 1
        word = ""
        if self.word == 32:
            levels = (len(p["q"]) - 3) // 2
            word = " word=32"
        if self.plain_modulus:
            word += f" {self.scheme} t={self.plain_modulus}"
        return (
            f"<ember.Compiled {self.name}({', '.join(self.inputs)})"
            f" target={self.target} N=2^{p['log_n']} L={levels}{word}>"
        )

    def _path(self, kind: str) -> Path:
        return self._folder / self.meta["files"][kind]

    def _read(self, kind: str) -> bytes:
        """A file of the program, checked against its SHA-256 in ember.json
        (read once and used as read, so it cannot change after the check)."""
        path = self._path(kind)
        try:
            data = path.read_bytes()
        except OSError as err:
            raise SerializationError(f"{path}: cannot read it ({err})") from err
        if hashlib.sha256(data).hexdigest() != self.meta["sha256"][kind]:
            raise SerializationError(
                f"{path} does not match its SHA-256 in ember.json (modified?)"
            )
        return data

    # --- what the compiler made -----------------------------------------------------
    @property
    def approximations(self) -> list[dict[str, Any]]:
        """Each ``ember.approx`` of the program: ``file``, ``line``,
        ``function``, ``interval``, ``degree`` and ``max_error`` (the
        interpolant's maximum error on its interval)."""
        return list(self.meta.get("approximations", []))

    @property
    def source(self) -> str:
        """The emitted server code (.cpp for cpu, .cu for cuda)."""
        return self._read("source").decode()

    def ir(self, stage: str = "fhe") -> str:
        """The program's IR after a stage: "fhe" (traced), "ckks" (parameters
        chosen, levels managed, rotations hoisted), "rns" (polynomial ops,
        ModDown merged, kernels fused) or "kernel" (runtime calls and
        generated kernels over planned buffers)."""
        if stage not in STAGES:
            raise EmberError(f"unknown stage {stage!r} (expected one of {STAGES})")
        if stage in ("fhe", "kernel"):
            return self._read(stage).decode()
        self._lower()
        return self._ir[stage]

    @property
    def cost_report(self) -> str:
        """ember-cost-report of the rns program: NTTs, BConvs, key switches,
        kernels and bytes moved."""
        self._lower()
        return self._ir["cost"]

    def _lower(self) -> None:
        """The ckks and rns stages and the cost report (one ember-opt run);
        read from the artifact when it was saved with them."""
        if self._ir:
            return
        saved = self.meta.get("stages", {})
        if all(k in saved for k in SAVED_STAGES):
            self._ir = {k: self._read_stage(k) for k in SAVED_STAGES}
            return
        fhe = self._path("fhe")
        self._read("fhe")  # checked
        with tempfile.TemporaryDirectory() as tmp:
            rns = Path(tmp) / "rns.mlir"
            run = _toolchain.run_opt(
                [
                    f"--ember-pipeline=fhe-to-rns{{{self.meta['pipeline']}}}",
                    "--ember-cost-report",
                    "--mlir-print-ir-after=ckks-record-interface",
                    str(fhe),
                    "-o",
                    str(rns),
                ],
                fhe.parent,
                self.name,
                self.options,
                (self.meta["file"], self.meta["line"]),
            )
            rns_text = rns.read_text()
        dump = run.stderr
        start = dump.find("\n", dump.find("IR Dump After")) + 1
        self._ir = {"ckks": dump[start:], "rns": rns_text, "cost": run.stdout}

    def _read_stage(self, kind: str) -> str:
        name, digest = self.meta["stages"][kind]
        path = self._folder / name
        data = path.read_bytes() if path.exists() else b""
        if hashlib.sha256(data).hexdigest() != digest:
            raise SerializationError(
                f"{path} does not match its SHA-256 in ember.json (modified?)"
            )
        return data.decode()

    # --- runtime objects ------------------------------------------------------
    @property
    def word(self) -> int:
        """The word size the program was compiled for: 64, or 32 (double-prime
        scaling; its keys and ciphertexts are the runtime's *32 classes)."""
        return int(self.manifest["params"].get("word", 64))

    @property
    def scheme(self) -> str:
        """The program's scheme: "ckks" (real or complex slots at a scale),
        or "bgv" or "bfv" (exact integers mod :attr:`plain_modulus`), as the
        manifest's params say."""
        return str(self.manifest["params"].get("scheme", "ckks"))

    @property
    def plain_modulus(self) -> int | None:
        """A BGV or BFV program's plaintext modulus t (slot values are
        integers mod t); None for CKKS."""
        if self.scheme not in ("bgv", "bfv"):
            return None
        return int(self.manifest["params"]["plaintext_modulus"])

    @property
    def noise_budgets(self) -> list[int]:
        """A BGV or BFV program's noise budget of each output, in bits, as
        the compiler estimated it (the manifest's): decryption is correct
        while it is positive. :meth:`measure_noise_budgets` measures it with
        the secret key."""
        if not self.plain_modulus:
            raise NotAvailableError(
                f"{self.name} is a CKKS program: noise budgets are BGV's and " "BFV's"
            )
        return [int(spec["noise_budget"]) for spec in self.manifest["outputs"]]

    @property
    def copies_because(self) -> str:
        """target="cuda": why the last run's graph copies its inputs into
        its buffers and its outputs out of them instead of running in place
        (:attr:`in_place`); "" when it runs in place or no graph is captured
        yet."""
        if self.target != "cuda" or self._library is None:
            return ""
        return str(self._program().copies_because)

    def _rt(self, name: str) -> Any:
        """The runtime class ``name`` at the program's word size (Encoder or
        Encoder32, ...)."""
        return getattr(_toolchain.runtime(), name + ("32" if self.word == 32 else ""))

    def _context(self) -> Any:
        if self._ctx is None:
            with runtime_errors("parameters"):
                self._ctx = _toolchain.context_from_params(
                    self.manifest["params"], self.security
                )
        return self._ctx

    def _program(self) -> Any:
        if self._library is None:
            # Built from the checked bytes (cached by content), never a
            # library found in the folder.
            if self.target == "cuda":
                library = _toolchain.build_cuda_library(self._read("source"))
                make = _toolchain.cuda_runtime().CudaProgram
            else:
                library = _toolchain.build_library(self._read("source"))
                make = _toolchain.runtime().Program
            data = _toolchain.cached_data(self._read("data"))
            with runtime_errors("loading the program"):
                self._library = make(str(library), str(data))
        return self._library

    # --- the GPU (target="cuda") ------------------------------------------------
    def _gpu(self) -> Any:
        """The CUDA device context of this program's parameters
        (NotAvailableError without a CUDA runtime or a GPU)."""
        if self.target != "cuda":
            raise NotAvailableError(
                f"{self.name} was compiled for target='cpu'; compile it with "
                "target='cuda' to run it on the GPU"
            )
        if self._device is None:
            er = _toolchain.cuda_runtime()
            try:
                self._device = er.CudaDevice(self._context())
            except er.DeviceUnavailable as err:
                raise NotAvailableError(
                    f"{self.name} (target='cuda') cannot run here: {err}"
                ) from None
        return self._device

    def _gpu_keys(self, evaluation_keys: Any) -> Any:
        """The evaluation keys on the GPU, uploaded once per keys object."""
        if self._device_keys is None or self._device_keys[0] is not evaluation_keys:
            keys = getattr(evaluation_keys, "keys", evaluation_keys)
            er = _toolchain.cuda_runtime()
            with runtime_errors("uploading the evaluation keys"):
                uploaded = getattr(
                    er,
                    "CudaEvaluationKeys32" if self.word == 32 else "CudaEvaluationKeys",
                )(self._gpu(), keys)
            self._device_keys = (evaluation_keys, uploaded)
        return self._device_keys[1]

    @property
    def devices(self) -> int:
        """The GPUs the program was compiled for (``devices=``; 1 unless
        it was partitioned)."""
        return int(self.manifest.get("devices", {}).get("count", 1))

    def _gpus(self) -> list[Any]:
        """Devices 0..k-1 of a program compiled with ``devices=k`` (device
        0 is :meth:`_gpu`, where inputs and outputs live)."""
        first = self._gpu()
        k = self.devices
        if len(self._peers) != k - 1:
            er = _toolchain.cuda_runtime()
            try:
                present = er.cuda_device_count()
            except er.DeviceUnavailable as err:
                raise NotAvailableError(str(err)) from None
            if present < k:
                raise NotAvailableError(
                    f"{self.name} was compiled for {k} GPUs (devices={k}); "
                    f"this host has {present}"
                )
            self._peers = [er.CudaDevice(self._context(), d) for d in range(1, k)]
        return [first, *self._peers]

    def _gpus_keys(self, evaluation_keys: Any) -> list[Any]:
        """Each GPU's evaluation keys: only those its part of the program
        reads (the manifest's devices.keys), with the limbs split only its
        rows of them, uploaded once per keys object."""
        if self._peer_keys is None or self._peer_keys[0] is not evaluation_keys:
            keys = getattr(evaluation_keys, "keys", evaluation_keys)
            er = _toolchain.cuda_runtime()
            shards = self.manifest["devices"]["keys"]
            uploaded = []
            with runtime_errors("uploading the evaluation keys"):
                for device, shard in zip(self._gpus(), shards, strict=True):
                    uploaded.append(
                        er.CudaEvaluationKeys(
                            device,
                            keys,
                            galois=[int(g) for g in shard["galois"]],
                            relin=bool(shard["relin"]),
                            encapsulation=bool(shard["encapsulation"]),
                            # partition="limbs": this GPU's rows only
                            rows=shard.get("rows"),
                        )
                    )
            self._peer_keys = (evaluation_keys, uploaded)
        return self._peer_keys[1]

    def to_device(self, cts: Ciphertexts) -> Ciphertexts:
        """Encrypted inputs copied to the GPU, so that runs on them (and on
        the outputs of runs, which stay there) need no copies."""
        self._check_hash(cts, "these ciphertexts")
        if cts.on_device:
            return cts
        device = self._gpu()
        with runtime_errors("copying to the GPU"):
            moved = [device.upload(ct) for ct in cts]
        return Ciphertexts(moved, cts.program_hash, cts.role)

    def from_device(self, cts: Ciphertexts) -> Ciphertexts:
        """Ciphertexts on the GPU copied back to the host (to decrypt or
        serialize them)."""
        self._check_hash(cts, "these ciphertexts")
        if not cts.on_device:
            return cts
        device = self._gpu()
        with runtime_errors("copying from the GPU"):
            moved = [device.download(ct) for ct in cts]
        return Ciphertexts(moved, cts.program_hash, cts.role)

    def _run_cuda(
        self, evaluation_keys: Any, cts: Sequence[Any], values: list[np.ndarray]
    ) -> Ciphertexts:
        """The GPU run: host inputs are uploaded and the outputs downloaded
        (timed apart in ``last_run``); inputs already on the GPU give
        outputs that stay there."""
        multi = self.devices > 1
        if multi:
            if self.word != 64:
                raise NotAvailableError("a multi-GPU program runs at 64-bit words")
            shard_keys = self._gpus_keys(evaluation_keys)
        else:
            keys = self._gpu_keys(evaluation_keys)
        on_device = getattr(cts, "on_device", False)
        start = time.perf_counter()
        inputs = self.to_device(cts) if not on_device else cts
        uploaded = time.perf_counter()
        program = self._program()
        program.in_place = self.in_place
        program.concurrent = self.concurrent
        program.prioritized = self.prioritized
        with runtime_errors("run"):
            if multi:  # one thread per GPU, NCCL between them
                outs = program.run_devices(
                    self._gpus(),
                    shard_keys,
                    list(inputs),
                    values,
                    self.graphs,
                    self.arena,
                )
            else:
                outs = program.run(
                    self._gpu(), keys, list(inputs), values, self.graphs, self.arena
                )
        ran = time.perf_counter()
        result = Ciphertexts(outs, self.program_hash, "outputs")
        if not on_device:
            result = self.from_device(result)
        done = time.perf_counter()
        self.last_run = {
            "upload": (uploaded - start) * 1e3 if not on_device else 0.0,
            "run": program.last_ms,
            "run_wall": (ran - uploaded) * 1e3,
            "download": (done - ran) * 1e3 if not on_device else 0.0,
            "kernels": float(program.graph_kernels),
            "in_place": float(program.runs_in_place),
            "path_nodes": float(program.graph_path_nodes),
            "arena_bytes": float(program.arena_bytes),
        }
        if multi:
            self.last_run["kernels"] = float(sum(program.device_graph_kernels))
            self.last_run["arena_bytes"] = float(sum(program.device_arena_bytes))
            # The longest of the devices' chains (each device's graph is
            # a DAG of its own steps).
            self.last_run["path_nodes"] = float(
                max(p for p, _ in program.device_graph_paths)
            )
        return result

    def _check_hash(self, obj: Any, what: str) -> None:
        h = getattr(obj, "program_hash", None)
        if h is not None and h != self.program_hash:
            raise KeyMismatchError(
                f"{what} belong to another program (program hash {h[:12]}), not to "
                f"{self.name} ({self.program_hash[:12]})"
            )

    # --- client ------------------------------------------------------------------
    def keygen(self, progress: Progress | None = None) -> Keys:
        """A fresh secret key, its public key and the evaluation keys the
        manifest lists. ``progress(done, total)`` is called per key."""
        er = _toolchain.runtime()
        ctx = self._context()
        listed = self.manifest["keys"]
        galois = [int(g) for g in listed["galois"]]
        klss_relin = bool(listed.get("klss_relin", False))
        klss_galois = [int(g) for g in listed.get("klss_galois", [])]
        # Bootstrapping's sparse-secret encapsulation: its ephemeral weight.
        encapsulation = listed.get("encapsulation")
        total = (
            2
            + int(bool(listed["relin"]))
            + len(galois)
            + int(klss_relin)
            + len(klss_galois)
            + int(encapsulation is not None)
        )
        done = 0

        def step() -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, total)

        with runtime_errors("keygen"):
            # BGV: the keys' errors are multiples of t (error factor t).
            generator = self._rt("KeyGenerator")(ctx, error_factor=self._error_factor)
            secret = SecretKey(generator, self.program_hash)
            step()
            public = generator.public_key()
            step()
            relin = None
            if listed["relin"]:
                relin = generator.relin_key()
                step()
            gk = None
            if galois:
                gk = self._rt("GaloisKeys")()
                for g in galois:
                    gk.add(g, generator.galois_key(g))
                    step()
            # KLSS forms (issue 7): the key switches rns-select-keyswitch gave
            # to KLSS read these instead.
            krelin = None
            if klss_relin:
                krelin = generator.klss_relin_key()
                step()
            kgk = None
            if klss_galois:
                kgk = self._rt("KlssGaloisKeys")()
                for g in klss_galois:
                    kgk.add(g, er.klss_key_from_hybrid(ctx, generator.galois_key(g)))
                    step()
            encaps = None
            if encapsulation is not None:
                encaps = generator.encapsulation_keys(
                    int(encapsulation["hamming_weight"])
                )
                step()
            evk = self._rt("EvaluationKeys")(
                relin=relin,
                galois=gk,
                klss_relin=krelin,
                klss_galois=kgk,
                encapsulation=encaps,
            )
        return Keys(
            secret,
            public,
            EvaluationKeys(evk, self.program_hash, ctx),
            self.program_hash,
        )

    @property
    def _error_factor(self) -> int:
        """What keys and encryptions multiply their errors by: t for BGV,
        1 for CKKS and BFV (whose message sits in the top bits, Delta m)."""
        return self.plain_modulus if self.scheme == "bgv" else 1

    def load_evaluation_keys(self, data: bytes) -> EvaluationKeys:
        """Evaluation keys from :meth:`EvaluationKeys.serialize` (server side)."""
        er = _toolchain.runtime()
        with runtime_errors("evaluation keys"):
            keys = er.deserialize_evaluation_keys(self._context(), data)
        return EvaluationKeys(keys, self.program_hash, self._context())

    # --- inputs: encrypted and plaintext --------------------------------------------
    def _input_specs(self, plain: bool) -> list[tuple[str, dict[str, Any]]]:
        """(name, manifest entry) of the encrypted (or plaintext) inputs, in
        parameter order."""
        return [
            (name, spec)
            for name, spec in zip(self.inputs, self.manifest["inputs"], strict=True)
            if bool(spec.get("plain")) == plain
        ]

    @property
    def encrypted_inputs(self) -> tuple[str, ...]:
        """Names of the inputs the client encrypts."""
        return tuple(n for n, _ in self._input_specs(False))

    @property
    def plain_inputs(self) -> tuple[str, ...]:
        """Names of the plaintext inputs the server is given at run time."""
        return tuple(n for n, _ in self._input_specs(True))

    @property
    def is_complex(self) -> bool:
        """Whether the program takes and returns complex slot values."""
        return self.meta.get("dtype", "float") == "complex"

    def _bind(self, plain: bool, args: Sequence[Any], kwargs: dict[str, Any]):
        """The values of the encrypted (or plaintext) inputs, checked, each
        within its range (the manifest's); for BGV, integers mod t
        (:meth:`_bind_integers`)."""
        specs = self._input_specs(plain)
        if self.plain_modulus:
            return self._bind_integers(specs, args, kwargs)
        values = bind_inputs(
            self.name,
            [n for n, _ in specs],
            [s["slots"] for _, s in specs],
            args,
            kwargs,
            self._defined_at(),
            self.is_complex,
        )
        for (name, spec), v in zip(specs, values, strict=True):
            if "range" in spec:
                check_input(name, v, spec["range"])
        return values

    def _bind_integers(
        self,
        specs: list[tuple[str, dict[str, Any]]],
        args: Sequence[Any],
        kwargs: dict[str, Any],
    ) -> list[np.ndarray]:
        """A BGV program's input values: each a vector of at most its
        ``slots`` integers (numpy integers, Python ints of any size, or
        floats that are integers), zero-padded to them and reduced mod t
        (int64 in [0, t)); anything else is an InputError naming the
        input."""
        t = self.plain_modulus
        assert t is not None
        where = f"program {self.name} (defined at {self._defined_at()})"
        bound = bind_names(where, [n for n, _ in specs], args, kwargs)
        return [
            _integers(
                bound[name],
                int(spec["slots"]),
                f"input '{name}' of {self.name}",
                t,
                InputError,
                scalar=False,
            ).astype(np.int64)
            for name, spec in specs
        ]

    def encrypt(self, keys: Keys, *args: Any, **inputs: Any) -> Ciphertexts:
        """Encrypts the encrypted inputs (by name or in parameter order) with
        the public key, at the level and scale the manifest asks for. A value
        outside its input's range (declared, or [-1, 1]) is an InputError.
        A BGV program takes integers (taken mod t) at the manifest's level
        and factor (its scale); a BFV program integers at the full modulus,
        scaled by Delta = Q / t (its scale)."""
        self._check_keys(keys)
        values = self._bind(False, args, inputs)
        ctx = self._context()
        encryptor = self._rt("Encryptor")(ctx, error_factor=self._error_factor)
        out = []
        bgv = self.scheme == "bgv"
        bfv = self.scheme == "bfv"
        with runtime_errors("encrypt"):
            if bgv:
                encoder = self._rt("BgvEncoder")(ctx, self.plain_modulus)
            elif bfv:
                encoder = _toolchain.runtime().BfvEncoder(ctx, self.plain_modulus)
            else:
                encoder = self._rt("Encoder")(ctx)
            for (_, spec), v in zip(self._input_specs(False), values, strict=True):
                if bfv:  # Delta m at the full Q: the manifest's level and scale
                    pt = encoder.encode(v, slots=spec["slots"])
                elif bgv:  # the factor mu is the manifest's scale (1 when fresh)
                    pt = encoder.encode(
                        v,
                        level=spec["level"],
                        slots=spec["slots"],
                        factor=int(spec["scale"]),
                    )
                else:
                    pt = encoder.encode(
                        v,
                        level=spec["level"],
                        scale=spec["scale"],
                        slots=spec["slots"],
                    )
                out.append(encryptor.encrypt(pt, keys.public))
        return Ciphertexts(out, self.program_hash, "inputs")

    def prepare(self) -> None:
        """Builds and loads the program and encodes its plaintext constants
        (the diagonals of its linear transforms, bootstrapping's among them)
        now, so that the first ``run`` takes no longer than the later ones.
        ``run`` does it itself when it was not done. Server side: no keys are
        needed. On target='cuda' the first run still encodes them (and
        captures the CUDA graph)."""
        program = self._program()
        if self.target == "cuda":
            return
        with runtime_errors("prepare"):
            program.prepare(self._context())

    def run(
        self,
        evaluation_keys: EvaluationKeys | Any,
        cts: Sequence[Any],
        *plain_args: Any,
        **plain: Any,
    ) -> Ciphertexts:
        """Runs the program (server side): evaluation keys, the encrypted
        inputs and the values of the plaintext inputs (by name or in
        parameter order: ``c.run(evk, cts, w=weights)``) in, encrypted
        outputs out."""
        if isinstance(evaluation_keys, Keys):
            raise KeyMismatchError(
                "run() takes keys.evaluation, not the client's Keys (the server "
                "never sees the secret key)"
            )
        self._check_hash(evaluation_keys, "these evaluation keys")
        self._check_hash(cts, "these ciphertexts")
        if getattr(cts, "role", "inputs") != "inputs":
            raise InputError("run() takes encrypted inputs, got encrypted outputs")
        specs = self._input_specs(False)
        if len(cts) != len(specs):
            raise ArgumentNameError(
                f"{self.name} takes {len(specs)} encrypted inputs, got {len(cts)}"
            )
        for (name, spec), ct in zip(specs, cts, strict=True):
            # Exactly the manifest's scale: the program was planned for it.
            if ct.level != spec["level"] or ct.scale != spec["scale"]:
                if self.scheme == "bfv":
                    raise InputError(
                        f"encrypted input '{name}' is at level {ct.level}, scale "
                        f"{ct.scale:.6g}; {self.name} expects a BFV ciphertext at "
                        f"level {spec['level']}, scale Delta = {spec['scale']:.6g}"
                    )
                if self.scheme == "bgv":
                    raise InputError(
                        f"encrypted input '{name}' is at level {ct.level}, factor "
                        f"{ct.scale:.0f}; {self.name} expects level "
                        f"{spec['level']}, factor {spec['scale']:.0f}"
                    )
                raise InputError(
                    f"encrypted input '{name}' is at level {ct.level}, scale "
                    f"2^{math.log2(ct.scale):.6f}; {self.name} expects level "
                    f"{spec['level']}, scale 2^{math.log2(spec['scale']):.6f}"
                )
        values = [
            np.asarray(v, dtype=np.complex128)
            for v in self._bind(True, plain_args, plain)
        ]
        if self.target == "cuda":
            return self._run_cuda(evaluation_keys, cts, values)
        if getattr(cts, "on_device", False):
            raise InputError(
                f"{self.name} was compiled for target='cpu': these ciphertexts "
                "are on the GPU (from_device() them first)"
            )
        keys = getattr(evaluation_keys, "keys", evaluation_keys)
        program = self._program()
        with runtime_errors("run"):
            outs = program.run(self._context(), keys, list(cts), values)
        return Ciphertexts(outs, self.program_hash, "outputs")

    def decrypt(
        self,
        keys: Keys,
        outputs: Sequence[Any],
        flooding_bits: float | None = None,
    ) -> np.ndarray | tuple[np.ndarray, ...]:
        """Decrypts the outputs: one array for a program with one output, a
        tuple in return order for several; float64 (real parts), or
        complex128 for a program declared ``dtype=complex``; for a BGV
        program, int64 slot values in [0, t).

        ``flooding_bits``: add fresh Gaussian noise of standard deviation
        2^flooding_bits to the decryption before decoding (Li-Micciancio:
        exact CKKS decryptions that are shared reveal the secret key; see
        README "Shared decryptions" and ``ember_runtime.flooding_bits`` for
        the size that a given ciphertext noise needs). It costs that many
        bits of precision at the output's scale.
        """
        self._check_keys(keys)
        self._check_hash(outputs, "these ciphertexts")
        specs = self.manifest["outputs"]
        if len(outputs) != len(specs):
            raise InputError(
                f"{self.name} has {len(specs)} outputs, got {len(outputs)}"
            )
        if flooding_bits is not None and not isinstance(flooding_bits, int | float):
            raise InputError(
                f"flooding_bits must be a number of bits, got {flooding_bits!r}"
            )
        if getattr(outputs, "on_device", False):
            outputs = self.from_device(outputs)
        if self.plain_modulus:
            if flooding_bits is not None:
                raise InputError(
                    "flooding_bits is for CKKS outputs: a "
                    f"{self.scheme.upper()} decryption is exact"
                )
            values = [v for v, _ in self._decrypt_bgv(keys, outputs)]
            return values[0] if self.meta["single_output"] else tuple(values)
        ctx = self._context()
        encoder = self._rt("Encoder")(ctx)
        decryptor = self._rt("Decryptor")(ctx, keys.secret.key)
        values = []
        with runtime_errors("decrypt"):
            for ct in outputs:
                pt = (
                    decryptor.decrypt(ct)
                    if flooding_bits is None
                    else decryptor.decrypt(ct, flooding_bits=float(flooding_bits))
                )
                v = np.asarray(encoder.decode(pt))
                values.append(
                    v.astype(np.complex128)
                    if self.is_complex
                    else np.real(v).astype(np.float64)
                )
        return values[0] if self.meta["single_output"] else tuple(values)

    def _decrypt_bgv(
        self, keys: Keys, outputs: Sequence[Any]
    ) -> list[tuple[np.ndarray, int]]:
        """Each BGV or BFV output's slot values (int64 in [0, t); BGV's
        factor mu from its scale) and its measured noise budget in bits."""
        ctx = self._context()
        if self.scheme == "bfv":
            encoder = _toolchain.runtime().BfvEncoder(ctx, self.plain_modulus)
        else:
            encoder = self._rt("BgvEncoder")(ctx, self.plain_modulus)
        decryptor = self._rt("Decryptor")(ctx, keys.secret.key)
        out = []
        with runtime_errors("decrypt"):
            for ct in outputs:
                pt = decryptor.decrypt(ct)
                values = np.asarray(encoder.decode(pt)).astype(np.int64)
                out.append((values, int(encoder.noise_budget(pt))))
        return out

    def measure_noise_budgets(self, keys: Keys, outputs: Sequence[Any]) -> list[int]:
        """The noise budget left in each output of a BGV or BFV program, in
        bits, measured on its decryption (client side: it needs the secret
        key); :attr:`noise_budgets` is the compiler's estimate."""
        if not self.plain_modulus:
            raise NotAvailableError(
                f"{self.name} is a CKKS program: noise budgets are BGV's and " "BFV's"
            )
        self._check_keys(keys)
        self._check_hash(outputs, "these ciphertexts")
        if getattr(outputs, "on_device", False):
            outputs = self.from_device(outputs)
        return [budget for _, budget in self._decrypt_bgv(keys, outputs)]

    def __call__(
        self, *args: Any, **inputs: Any
    ) -> np.ndarray | tuple[np.ndarray, ...]:
        """Encrypt, run and decrypt in one call, with keys generated once;
        the inputs, encrypted and plaintext, by name or in parameter order."""
        if self._keys is None:
            self._keys = self.keygen()
        if len(args) > len(self.inputs):
            raise ArgumentNameError(
                f"program {self.name} takes {len(self.inputs)} inputs, got "
                f"{len(args)} positional"
            )
        named = dict(zip(self.inputs, args, strict=False))
        for k, v in inputs.items():
            if k in named:
                raise ArgumentNameError(f"program {self.name}: input '{k}' given twice")
            named[k] = v
        plain_names = set(self.plain_inputs)
        enc = {k: v for k, v in named.items() if k not in plain_names}
        plain = {k: v for k, v in named.items() if k in plain_names}
        cts = self.encrypt(self._keys, **enc)
        return self.decrypt(self._keys, self.run(self._keys.evaluation, cts, **plain))

    def _check_keys(self, keys: Any) -> None:
        if not isinstance(keys, Keys):
            raise KeyMismatchError(
                f"expected the Keys of {self.name}.keygen(), got {type(keys).__name__}"
            )
        self._check_hash(keys, "these keys")

    def _defined_at(self) -> str:
        return f"{self.meta['file']}:{self.meta['line']}"

    # --- saving ----------------------------------------------------------------------
    def save(self, folder: str | Path) -> Path:
        """Writes the artifact into ``folder`` (created): the emitted code,
        the manifest, the IR of every stage, the cost report and ember.json
        with the SHA-256 of each; :func:`load` reads it back with the runtime
        alone. No library: the loader builds one from the checked source."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            self._lower()
        except NotAvailableError:
            pass  # loaded without the compiler and saved without stages
        for kind in FILES:
            data = self._read(kind)
            target = folder / self.meta["files"][kind]
            if not (target.exists() and target.samefile(self._path(kind))):
                target.write_bytes(data)
        meta = dict(self.meta)
        if self._ir:
            meta["stages"] = {}
            for kind, text in self._ir.items():
                data = text.encode()
                (folder / f"{self.name}.{kind}.txt").write_bytes(data)
                meta["stages"][kind] = [
                    f"{self.name}.{kind}.txt",
                    hashlib.sha256(data).hexdigest(),
                ]
        (folder / "ember.json").write_text(json.dumps(meta, indent=2) + "\n")
        return folder


def program_hash(meta: dict[str, Any]) -> str:
    """SHA-256 of ember.json without its hash and saved stages: the
    interface, the options and the SHA-256 of the traced program, the kernel
    IR, the emitted source and the manifest. Keys and ciphertexts carry it,
    so those of another program (or another target) are refused, and
    :func:`load` refuses a folder whose files do not match it."""
    core = {k: v for k, v in meta.items() if k not in ("hash", "stages")}
    return hashlib.sha256(json.dumps(core, sort_keys=True).encode()).hexdigest()


def _resolve_target(opts: CompileOptions, target: str) -> CompileOptions:
    """The options ``target`` fixes. The word size: word="auto" is the
    compiler's choice by its cost model on target="cuda" (the model is the
    GPU's), and 64 on target="cpu", where 32-bit words are slower
    (bench/RESULTS.md: hmul+relin 226 against 163 ms on two cores). And
    ``concurrency`` 0 on target="cpu", which runs one step at a time."""
    if opts.word == "auto" and target == "cpu":
        opts = dataclasses.replace(opts, word="64")
    if target == "cpu":  # one step at a time: the minimal arena
        opts = dataclasses.replace(opts, concurrency=0)
    return opts


def _bgv_options(opts: CompileOptions, program: Program) -> CompileOptions:
    """scheme="bgv" or "bfv": the pipeline's scheme and t, and an OptionError
    for the CKKS-only options (their parameters come from depth, t and
    noise)."""
    ckks_only = {
        "params": opts.params is not None,
        "scale_bits": opts.scale_bits is not None,
        "word": opts.word not in (None, "64", "auto"),
        "klss_t": opts.klss_t is not None,
        "bootstrap": opts.bootstrap != "manual",
    }
    bad = [name for name, set_ in ckks_only.items() if set_]
    if bad:
        raise OptionError(
            f"{', '.join(bad)}: CKKS options, not for scheme={program.scheme!r} "
            f"({program.scheme.upper()}'s parameters come from the program's "
            "depth and its plaintext modulus)"
        )
    return dataclasses.replace(
        opts,
        scheme=program.scheme,
        plaintext_modulus=program.plaintext_modulus,
        word=None,
    )


def compile(  # noqa: A001 - the API's name
    program: Program,
    target: str = "cpu",
    options: CompileOptions | None = None,
    *,
    inputset: Any = None,
    print_ir_after_all: bool = False,
    **overrides: Any,
) -> Compiled:
    """Traces ``program`` and compiles it ahead of time.

    ``target``: "cpu" (C++ for the CPU runtime, built into a shared library
    here, cached by content) or "cuda" (CUDA for the GPU runtime).
    ``options`` and the keyword arguments are the compiler's options
    (:class:`ember.CompileOptions`: ``security``, ``params``, ``log_n``,
    ``scale_bits``, ``dnum``, ``extra_levels``, ``rescale``,
    ``rescale_outputs``, ``lazy_relin``, ``hoisting``, ``merge_moddown``,
    ``fusion``, ``expand_modswitch``, ``lazy_sums``, ``lift_rotation``,
    ``lift_addends``, ``hoist_siblings``, ``lanes``, ``concurrency``,
    ``ks_overlap``, ``keyswitch``, ``key_memory_mib``, ``klss_gamma``,
    ``klss_t``), e.g.
    ``ember.compile(f, log_n=14, scale_bits=45, hoisting=False)``.
    ``inputset``: sample inputs (a list of dicts by name, or of sequences
    in parameter order); each input the program does not give a range gets
    the interval of its sample values, widened by a tenth of its largest
    magnitude on each side (:mod:`ember.ranges`).
    ``print_ir_after_all``: print the IR after every pass to stderr.

    Raises OptionError (a wrong type or choice, before compiling),
    CompileError, DepthError (too deep for secure parameters) or
    SecurityError (the parameters asked for would be insecure), at the
    user's line.
    """
    from ember.tfhe import TfheProgram, compile_tfhe

    if not isinstance(program, Program | TfheProgram):
        raise OptionError(
            "ember.compile takes an @ember.program function, got "
            + type(program).__name__
        )
    if target not in TARGETS:
        raise OptionError(f"unknown target {target!r} (expected 'cpu' or 'cuda')")
    opts = CompileOptions.from_kwargs(options, **overrides)
    if isinstance(program, TfheProgram):
        return compile_tfhe(program, target, opts)
    if opts.encoding is not None:
        raise OptionError(
            "encoding applies to @ember.program(scheme='tfhe') programs "
            f"(integers as bits or radix blocks), not to {program.name}"
        )
    opts = _resolve_target(opts, target)
    fallback = (program.filename, program.lineno)
    if program.plaintext_modulus:
        opts = _bgv_options(opts, program)
    value_ranges = None
    if inputset is not None:
        value_ranges = from_inputset(
            program.bind, program.inputs, program.ranges, inputset
        )
    trace = program.trace(value_ranges)
    keep = tempfile.TemporaryDirectory(prefix=f"ember-{program.name}-")
    folder = Path(keep.name)
    name = program.name
    fhe = folder / f"{name}.fhe.mlir"
    fhe.write_text(trace.mlir)
    pipeline = _toolchain.pipeline_options(opts)
    ir_after_all = None
    if print_ir_after_all:
        run = _toolchain.run_opt(
            [
                f"--ember-pipeline=fhe-to-kernel{{{pipeline}}}",
                "--mlir-print-ir-after-all",
                str(fhe),
                "-o",
                "/dev/null",
            ],
            folder,
            name,
            opts,
            fallback,
        )
        ir_after_all = run.stderr
        sys.stderr.write(ir_after_all)
    targets = ("cpp",) if target == "cpu" else ("cuda",)
    out = _toolchain.compile_artifact(fhe, folder, name, targets, opts, fallback)
    source = out["cpp" if target == "cpu" else "cuda"]
    files = {
        "fhe": fhe.name,
        "kernel": out["kernel"].name,
        "source": source.name,
        "manifest": out["manifest"].name,
        "data": out["data"].name,
    }
    meta = {
        "format": FORMAT,
        "name": name,
        "slots": program.slots,
        "inputs": list(trace.inputs),
        "outputs": trace.outputs,
        "single_output": trace.single_output,
        "dtype": "complex" if program.dtype is complex else "float",
        "target": target,
        "options": opts.to_json(),
        "pipeline": pipeline,
        "memory": out["memory"],
        "file": program.filename,
        "line": program.lineno,
        "files": files,
        **(
            {"approximations": list(trace.approximations)}
            if trace.approximations
            else {}
        ),
        "sha256": {
            kind: hashlib.sha256((folder / f).read_bytes()).hexdigest()
            for kind, f in files.items()
        },
    }
    meta["hash"] = program_hash(meta)
    compiled = Compiled(folder, meta, keep, security=opts.security)
    # Ahead of time: build the library (or find it cached); for the GPU
    # where nvcc is here, else on the GPU host when the program first runs.
    if target == "cpu":
        _toolchain.build_library(compiled._read("source"))
    elif _toolchain.nvcc_available():
        _toolchain.build_cuda_library(compiled._read("source"))
    compiled.ir_after_all = ir_after_all
    return compiled


def load(
    folder: str | Path,
    *,
    security: int | str = 128,
    expect_hash: str | None = None,
    target: str = "cpu",
) -> Compiled:
    """A program saved by :meth:`Compiled.save`; needs only the runtime.

    A TFHE program (a folder holding one ``<name>.tfhe.json``) runs on
    ``target`` ("cpu" or "cuda": its circuit runs on either).

    Every file is checked against its SHA-256 in ember.json and those
    against the program hash (SerializationError on any difference); with
    ``expect_hash`` the program hash must be that one (the hash of the
    program you compiled: ``Compiled.program_hash``). ``security``: 128
    refuses a program whose manifest is below 128 bits (SecurityError);
    "none" (the insecure test mode) is the only way to load one.
    """
    folder = Path(folder)
    meta_path = folder / "ember.json"
    tfhe = sorted(folder.glob("*.tfhe.json")) if folder.is_dir() else []
    if not meta_path.exists() and len(tfhe) == 1:
        from ember.tfhe import load_tfhe

        return load_tfhe(tfhe[0], target, security)
    if not meta_path.exists():
        raise SerializationError(f"{folder} holds no Ember program (no ember.json)")
    try:
        meta = json.loads(meta_path.read_text())
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            found = meta.get("format") if isinstance(meta, dict) else None
            raise SerializationError(
                f"{meta_path}: format {found}, this Ember reads {FORMAT}"
            )
        names = [meta["files"][k] for k in FILES]
        names += [v[0] for v in meta.get("stages", {}).values()]
        for n in names:
            if not isinstance(n, str) or Path(n).name != n or n.startswith("."):
                raise SerializationError(f"{meta_path}: {n!r} is not a file name")
        if program_hash(meta) != meta["hash"]:
            raise SerializationError(
                f"{meta_path} does not match its program hash (modified?)"
            )
        compiled = Compiled(folder, meta, security=security)
        for kind in FILES:
            compiled._read(kind)
        for kind in meta.get("stages", {}):
            compiled._read_stage(kind)
        params = compiled.manifest.get("params")
        if not isinstance(params, dict):
            raise SerializationError(f"{folder}: the manifest has no params object")
        if not isinstance(params.get("log_n"), int) or not isinstance(
            params.get("q"), list
        ):
            raise SerializationError(f"{folder}: the manifest's params lack log_n or q")
    except SerializationError:
        raise
    except (
        OSError,
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        RecursionError,
    ) as err:
        # ember.json and the manifest are untrusted input (fuzz/fuzz_manifest.py).
        raise SerializationError(
            f"{folder}: not a valid Ember program ({type(err).__name__}: {err})"
        ) from err
    if expect_hash is not None and expect_hash != compiled.program_hash:
        raise SerializationError(
            f"{folder} holds program {compiled.program_hash[:16]}, not the "
            f"expected {expect_hash[:16]}"
        )
    _toolchain.check_security(
        compiled.manifest["params"], security, f"the program in {folder}"
    )
    return compiled
