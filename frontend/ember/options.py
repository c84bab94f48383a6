"""Compiler options: :class:`CompileOptions`, what ``ember.compile``, ``ember
compile`` and ``ember run`` take.

Each field is one option of the compiler's ``fhe-to-kernel`` pipeline
(compiler/Pipelines/Pipelines.h). This dataclass is the one list of them:
``ember.compile`` takes its fields as keyword arguments, the CLI makes one
flag per field (``--log-n``, ``--no-hoisting``...),
``_toolchain.pipeline_options`` writes the pipeline's option string from
it, and the artifact's ``ember.json`` records it.

Python checks the types and the choices; the compiler (fhe-to-ckks) checks
what needs the program: ranges, whether the parameters are secure and deep
enough, combinations such as a named set with ``log_n``.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import numbers
import re
from dataclasses import dataclass, field
from typing import Any

from ember.errors import OptionError

SECURITY = (128, "none")


def _option(
    default: Any,
    pipeline: str,
    help: str,  # noqa: A002 - argparse's word
    choices: tuple[Any, ...] = (),
    minimum: int | None = None,
    aliases: tuple[str, ...] = (),
) -> Any:
    """A field: its default, its pipeline option's name, its help line, its
    choices (a name option, or the values of an int option) or its minimum
    (an int option), and other names
    the compiler's messages use for it (a pass's own option name)."""
    if isinstance(default, bool):
        kind = "bool"
    elif isinstance(default, int) and all(isinstance(c, int) for c in choices):
        kind = "int"  # an int, of these values if choices
    elif choices or (default is None and minimum is None):
        kind = "name"
    else:
        kind = "int"
    meta = {
        "pipeline": pipeline,
        "help": help,
        "kind": kind,
        "choices": choices,
        "min": minimum,
        "names": (pipeline, *aliases),
    }
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class CompileOptions:
    """How the compiler chooses parameters and which optimisations it runs.

    Parameters (as an OpenFHE user chooses them; None: chosen from the
    program's depth and slots):

    - ``security``: 128 (the parameters must meet the 128-bit bound) or
      "none", the insecure test mode, named explicitly.
    - ``params``: a named parameter set ("A", "B", "C", "athena40",
      "athena24"); it fixes log N, the scale and dnum, so it cannot be
      combined with ``log_n``, ``scale_bits`` or ``dnum``.
    - ``log_n``: ring degree N = 2^log_n (13..17).
    - ``scale_bits``: bits of the scale and of each scale prime (15..60);
      None: 40, or less when the inputs' ranges need it (ember.ranges).
      A scale you give is kept, and refused if the values do not fit.
    - ``dnum``: key-switching digits.
    - ``word``: the runtime's word size. "64" (primes up to 61 bits, one
      per level; the default), "32" (primes below 2^30 with double-prime
      scaling, Cheddar's 32-bit CKKS: a pair of primes carries each level's
      scale) or "auto": on target="cuda" the word the compiler's cost model
      predicts faster for the program, 32 bits only by a 20% margin (both
      predictions are in the ckks IR, ``ember.word64_us`` /
      ``ember.word32_us``; compiled 32-bit programs have run slower than the
      model predicts, bench/RESULTS.md); on target="cpu" 64, where 32-bit
      words are slower. None: 64, or the named set's ("cheddar32" is
      32-bit). Bootstrapping compiles at 32 bits (``word=32``: Q_0 is q_0
      and the base pair, the procedure on pairs carrying 2^59); "auto"
      keeps programs that bootstrap at 64. KLSS forms at both words (T of
      30-bit primes at 32 bits).
    - ``extra_levels``: levels left at the outputs beyond the program's
      depth.
    - ``encapsulate``: a program that bootstraps keeps a dense secret and
      switches to an ephemeral sparse one (Hamming weight 32) around
      ModRaise, sparse-secret encapsulation (the default; the dense
      security bound leaves nine levels after bootstrapping at N = 2^16);
      False: the secret itself is sparse (Hamming weight 192).
    - ``bootstrap``: "manual" (the default: only the program's own
      ``x.bootstrap()``) or "auto": the compiler also inserts bootstraps
      where the program is deeper than the chain, at the least predicted
      cost (a shortest path over the program's points; the cost report
      lists each bootstrap and its predicted time). Without
      ``bootstrap_levels`` it bootstraps only a program that no 128-bit
      chain holds, with the most levels between bootstraps that 128-bit
      parameters allow (9 at N = 2^16; in the insecure test mode, what
      they would allow at N = 2^16). Values of any slot count can be
      bootstrapped (below N/2 by sparse packing); without ``log_n`` a
      program that needs bootstraps gets at least N = 2^16.
    - ``bootstrap_levels``: with ``bootstrap="auto"``, the levels kept
      between bootstraps (fewer levels: more bootstraps, cheaper ops).
    - ``bootstrap_stop_after``: a measurement aid, "coeff_to_slot" or
      "eval_mod": every bootstrap's expansion stops after that phase (its
      result is then not its input); the phases' GPU times are differences
      of such programs' times (bench/make_python_gpu_artifacts.py).
    - ``bootstrap_cosine_bits``: EvalMod's cosine interpolant errs by at
      most 2^-bits in the message (27, the default: a degree-30 cosine and
      three double angles; 34: the earlier degree-48 cosine and two, three
      more products per EvalMod).

    Optimisations (each has an off switch so its gain can be measured):

    - ``rescale``: "lazy" (rescale as late as possible) or "eager".
    - ``rescale_outputs``: with ``rescale="lazy"``, an output above the
      waterline is rescaled before it is returned (True, the default); False
      returns it at its scale (a lone product at ~S^2, as OpenFHE's
      FLEXIBLEAUTO and Phantom return one hmul), saving the rescale and its
      rounding error (Q_l / scale is the same either way); the client
      decrypts at the recorded scale.
    - ``lazy_relin``: relinearize lazily (Cheddar 5.2).
    - ``hoisting``: one ModUp shared by rotations of one input, one ModDown
      for sums of rotations (CKKS, BGV and BFV).
    - ``double_hoisting``: with hoisting, a CKKS matrix-vector product's
      (and bootstrapping's DFTs') inner sums of plaintext products taken
      over Q_l u P before one ModDown each, and the baby-step giant-step
      split chosen for that (more baby steps: more Galois keys, fewer key
      switches; bootstrap16 42 -> 56 keys).
    - ``bfv_mult``: a BFV program's product, "behz" (Bajard-Eynard-Hasan-
      Zucca, the default: 0.84x HPS's time on two CPU cores, 0.90-0.92x on
      an H100) or "hps" (Halevi-Polyakov-Shoup).
    - ``encoding``: a ``scheme="tfhe"`` program's integers, "bits" (gate
      circuits), "radix" (tfhe-rs's blocks of 2 message bits under tables
      over Z_16: an 8-bit add is 9 programmable bootstraps over 3 levels)
      or "auto" (None: radix where the parameter set reads tables over Z_16
      within 2^-40, i.e. STD128_4BIT_MR and TOY_4BIT_MR; else bits).
    - ``merge_moddown``: ModDown merged with the following rescale, sums
      before ModDown.
    - ``fusion``: elementwise chains fused into one kernel (with an NTT's
      prologue/epilogue), sibling kernels that read a common input merged,
      automorphisms folded into their consumers' loads and into the
      inner products of hoisted rotations.
    - ``expand_modswitch``: ModUp/ModDown expanded before fusion.
    - ``lazy_sums``: a fused kernel's sum of three or more products (a
      hoisted dot's inner sum, lazily relinearised tensor products) summed
      unreduced in two words and reduced once, at 64-bit words (at 32-bit
      words the kernels keep one reduction a product: measured faster).
    - ``lift_rotation``: a rotation's c0 side, sigma(c0) + ModDown(acc)#0,
      added in the ModDown's last NTT (a permuted read of c0 in its
      epilogue) instead of a kernel of its own; with ``fusion``.
    - ``lift_addends``: another addend of a ModDown's result, y +
      ModDown(acc)#i with y computed before it (an unrescaled product's d0
      and d1), added in the ModDown's last NTT (read in order); y's kernel
      then computes it beside d2 instead of a kernel after the ModDown;
      with ``fusion``.
    - ``hoist_siblings``: a sibling kernel reading the same buffers as an
      earlier one (the next giant step's sum over the same baby steps)
      hoisted up and fused into it, so the two share those loads.
    - ``lanes``: coefficients per thread of the generated CUDA kernels, 1,
      2 or 4, loaded and stored as vectors; 0 (the default) picks 2 at
      32-bit words (one 4-byte load a thread keeps too few bytes in flight)
      and 1 at 64 (two made the large sums' kernels slower).
    - ``concurrency``: percent of extra arena (over the minimal first-fit
      plan) the memory plan may take so that independent steps stay
      unordered: the GPU's graph orders each step after the last users of
      the bytes it writes, so a buffer placed over a dead buffer that an
      unrelated op read would chain the two. 0 gives the minimal arena;
      target="cpu" always has it (one step at a time).
    - ``ks_overlap``: a lone key switch's ModDown overlaps its inner
      product, at N >= 2^16 (every other key switch before or after it).
      The inner product's dropped rows (P, and q_l under a merged rescale)
      run first, at the graph's greatest priority, then the ModDown's INTT
      and BConv, which read only those rows, beside the kept rows; the last
      NTT follows both. The memory plan keeps the digits alive through the
      ModDown (a larger arena: 109 -> 143 MB for one hmul+relin at set B,
      10-14 us faster on an H200). The CPU runs the two in turn; one
      device only.
    - ``keyswitch``: "auto" (hybrid or KLSS per key switch, by the cost
      model), "hybrid" or "klss".
    - ``key_memory_mib``: device memory budget for evaluation keys, MiB (0:
      none); with ``bootstrap="auto"`` it also bounds the run between
      bootstraps (only runs whose keys fit are placed).
    - ``devices``: the GPUs of one host the program is spread over
      (kernel-partition-devices): each kernel goes to the GPU where the
      cost model says it finishes first, buffers cross by NCCL send/recv,
      each GPU gets its own arena and only the keys it reads; the manifest's
      ``devices`` section gives each GPU's arena, keys and bytes and the
      predicted times. On the CPU such a program runs as a simulation of
      its GPUs (the same residues as devices=1). ``link_gbps`` and
      ``link_latency_us``: the GPU-to-GPU bandwidth and the fixed cost of a
      transfer that the partition's cost model assumes. ``recompute``:
      a buffer needed on a second GPU is made there again by the kernels
      that made it (their operands on that GPU, or moved once) where the
      model prices that below moving it (the baby steps of a matrix-vector
      product read by giant steps on both GPUs). The defaults (120 GB/s,
      recompute on) gave the fastest partitions measured on two H200s
      (bench/RESULTS.md, "the link sweep"). ``partial_sums``: a sum whose
      terms were made on several GPUs (the giant steps of a matrix-vector
      product before their one ModDown) is added up on each GPU first,
      so one polynomial per GPU moves instead of every term.
      ``partition="limbs"``: instead, every polynomial's RNS limbs are
      split over all the GPUs (each GPU holds a contiguous share of the Q
      and of the P limbs); limb-wise kernels, NTTs and the key-switch inner
      product run on each GPU over its share, and each base conversion
      first gathers its input on every GPU (NCCL send/recv). The modulus
      switches are expanded and key switching is hybrid.
    - ``klss_gamma``, ``klss_t``: KLSS key-group size and number of
      temporary primes for parameters chosen from the program.
    - ``klss_form``: with ``keyswitch="auto"`` and parameters chosen from
      the program (no ``params``, no ``klss_gamma``), the compiler adds the
      KLSS form (gamma, the fewest T primes of 61 bits, 30 at 32-bit
      words) that lowers the predicted key-switching time by 5% or more,
      when one does (on by default; the form's keys may take at most 1.5x
      the all-hybrid keys, or key_memory_mib decides). On an H200 the K = 1
      program it adds a form to runs 0.77x hybrid's time, and at 32-bit
      words 0.69x (bench/RESULTS.md, 2026-11-26); at the default dnum the
      model keeps hybrid.
    """

    scheme: str | None = _option(
        None,
        "scheme",
        "the program's scheme (set by @ember.program(scheme=...))",
        ("ckks", "bgv", "bfv"),
    )
    plaintext_modulus: int | None = _option(
        None,
        "plaintext-modulus",
        "BGV's plaintext modulus t (set by @ember.program(plaintext_modulus=...))",
        minimum=3,
    )
    security: int | str = _option(
        128, "security", "128, or 'none' (insecure test mode)", SECURITY
    )
    params: str | None = _option(
        None, "params", "named parameter set (A, B, C, athena40, athena24)"
    )
    log_n: int | None = _option(None, "log-n", "ring degree N = 2^LOG_N", minimum=1)
    scale_bits: int | None = _option(
        None, "scale-bits", "bits of the scale and of each scale prime", minimum=1
    )
    dnum: int | None = _option(None, "dnum", "key-switching digits", minimum=1)
    word: str | None = _option(
        None,
        "word",
        "word size: 64, 32 (double-prime scaling) or auto (the cost model's)",
        ("64", "32", "auto"),
    )
    extra_levels: int = _option(
        0, "extra-levels", "levels beyond the program's depth", minimum=0
    )
    encapsulate: bool = _option(
        True, "encapsulate", "sparse-secret encapsulation around bootstrapping"
    )
    bootstrap: str = _option(
        "manual",
        "bootstrap",
        "manual (the program's own bootstraps) or auto (also where needed)",
        ("manual", "auto"),
    )
    bootstrap_levels: int | None = _option(
        None,
        "bootstrap-levels",
        "with bootstrap=auto, the levels between bootstraps",
        minimum=1,
    )
    bootstrap_stop_after: str | None = _option(
        None,
        "bootstrap-stop-after",
        "measurement aid: stop bootstraps after a phase",
        ("coeff_to_slot", "eval_mod"),
    )
    bootstrap_cosine_bits: int = _option(
        27,
        "bootstrap-cosine-bits",
        "EvalMod's cosine: its error in the message at most 2^-bits",
        minimum=10,
    )
    rescale: str = _option("lazy", "rescale", "rescale strategy", ("lazy", "eager"))
    rescale_outputs: bool = _option(
        True,
        "rescale-outputs",
        "lazy rescale: rescale outputs above the waterline (False: return "
        "them at their scale)",
    )
    lazy_relin: bool = _option(True, "lazy-relin", "relinearize lazily")
    hoisting: bool = _option(True, "hoisting", "hoist rotations")
    double_hoisting: bool = _option(
        True,
        "double-hoisting",
        "matrix products' inner sums over Q_l u P, one ModDown each",
    )
    bfv_mult: str = _option(
        "behz", "bfv-mult", "BFV's product: BEHZ or HPS", ("behz", "hps")
    )
    encoding: str | None = _option(
        None,
        "encoding",
        "a tfhe program's integers: bits, radix (blocks of 2 bits) or auto",
        ("auto", "bits", "radix"),
    )
    merge_moddown: bool = _option(
        True, "merge-moddown", "merge ModDown with rescale, sum before ModDown"
    )
    fusion: bool = _option(
        True,
        "fusion",
        "fuse elementwise kernels (and read a merged ModDown's P*y + acc in "
        "place, hoist a lone rotation)",
    )
    expand_modswitch: bool = _option(
        False, "expand-modswitch", "expand ModUp/ModDown before fusion"
    )
    lazy_sums: bool = _option(
        True,
        "lazy-sums",
        "generated kernels sum 3+ products unreduced, one reduction a sum",
    )
    lift_rotation: bool = _option(
        True,
        "lift-rotation",
        "add a rotation's rotated c0 in its ModDown's last NTT (with fusion)",
    )
    lift_addends: bool = _option(
        True,
        "lift-addends",
        "add y of y + ModDown(acc) in the ModDown's last NTT (with fusion)",
    )
    hoist_siblings: bool = _option(
        True,
        "hoist-siblings",
        "fuse a sibling kernel into an earlier one that reads the same "
        "buffers, hoisted up to it (giant steps of a matrix-vector product)",
    )
    keyswitch: str = _option(
        "auto",
        "keyswitch",
        "key switching: per key switch by the cost model, or forced",
        ("auto", "hybrid", "klss"),
    )
    key_memory_mib: int = _option(
        0,
        "key-memory-budget-mib",
        "device memory for evaluation keys in MiB (0: none)",
        minimum=0,
        aliases=("memory-budget-mib",),
    )
    klss_gamma: int | None = _option(
        None, "klss-gamma", "KLSS key-group size", minimum=1
    )
    klss_t: int | None = _option(None, "klss-t", "KLSS temporary primes r'", minimum=1)
    lanes: int = _option(
        0,
        "lanes",
        "coefficients per thread of generated CUDA kernels (0: 2 at 32-bit "
        "words, 1 at 64)",
        (0, 1, 2, 4),
    )
    concurrency: int = _option(
        100,
        "concurrency",
        "percent of extra arena the memory plan may take so that independent "
        "steps run side by side on the GPU (0: the minimal arena)",
        minimum=0,
    )
    ks_overlap: bool = _option(
        True,
        "ks-overlap",
        "run a ModDown's INTT and BConv beside its inner product's kept rows "
        "on the GPU (the plan keeps the digits alive through the ModDown)",
    )
    devices: int = _option(
        1,
        "devices",
        "GPUs of one host to spread the program over (NCCL; 1: one GPU)",
        minimum=1,
    )
    link_gbps: int = _option(
        120,
        "link-gbps",
        "with devices > 1, the GPU-to-GPU bandwidth the partition assumes (GB/s)",
        minimum=1,
    )
    link_latency_us: int = _option(
        12,
        "link-latency-us",
        "with devices > 1, the fixed cost of one transfer the partition assumes (us)",
        minimum=0,
    )
    partition: str = _option(
        "operations",
        "partition",
        "with devices > 1: whole operations per GPU ('operations') or every "
        "polynomial's limbs split over the GPUs ('limbs')",
        choices=("operations", "limbs"),
    )
    recompute: bool = _option(
        True,
        "recompute",
        "with devices > 1, run a kernel again where that beats a transfer",
    )
    partial_sums: bool = _option(
        True,
        "partial-sums",
        "with devices > 1, sum each GPU's terms of a sum before they move",
    )
    klss_form: bool = _option(
        True,
        "klss-form",
        "give parameters chosen from the program a KLSS form where the cost "
        "model predicts a win (keyswitch='auto')",
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _check(f, getattr(self, f.name)))

    @classmethod
    def from_kwargs(
        cls, base: CompileOptions | None = None, **kwargs: Any
    ) -> CompileOptions:
        """``base`` (default: the defaults) with the keyword arguments
        replaced; an unknown name is an OptionError that lists the options."""
        names = [f.name for f in dataclasses.fields(cls)]
        for name in kwargs:
            if name not in names:
                close = difflib.get_close_matches(name, names, 1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise OptionError(
                    f"unknown compile option {name!r}{hint}; the options are "
                    + ", ".join(names)
                )
        if base is not None and not isinstance(base, CompileOptions):
            raise OptionError(
                f"options must be an ember.CompileOptions, got {type(base).__name__}"
            )
        return dataclasses.replace(base or cls(), **kwargs)

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        }

    def to_json(self) -> dict[str, Any]:
        """Every option by its Python name (for ember.json)."""
        return dataclasses.asdict(self)


def _check(f: dataclasses.Field, value: Any) -> Any:
    """The value of option ``f``, checked and normalised, or an OptionError."""
    name, kind = f.name, f.metadata["kind"]
    choices, minimum = f.metadata["choices"], f.metadata["min"]
    if name == "security":
        if value in (128, "128"):
            return 128
        if value == "none":
            return "none"
        raise OptionError(
            f"security must be 128 or 'none' (insecure test mode), got {value!r}"
        )
    if kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(f"{name} must be True or False, got {value!r}")
        return value
    if value is None and f.default is None:
        return None
    if name == "word" and value in (32, 64) and not isinstance(value, bool):
        value = str(value)  # word=32 as naturally as word="32"
    if kind == "name":
        if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_]+", value):
            raise OptionError(f"{name} must be a name, got {value!r}")
        if choices and value not in choices:
            raise OptionError(
                f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}"
            )
        return value
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise OptionError(f"{name} must be an int, got {value!r}")
    if minimum is not None and value < minimum:
        kind = "positive" if minimum == 1 else "non-negative"
        raise OptionError(f"{name} must be a {kind} int, got {value!r}")
    if choices and value not in choices:
        raise OptionError(
            f"{name} must be one of {', '.join(map(str, choices))}, got {value!r}"
        )
    return int(value)


def python_names(message: str) -> str:
    """A compiler message with pipeline option names (``log-n``) replaced by
    the Python names of ``ember.compile`` (``log_n``)."""
    for f in dataclasses.fields(CompileOptions):
        for name in f.metadata["names"]:
            if name != f.name:
                message = re.sub(
                    rf"(?<![\w-]){re.escape(name)}(?![\w-])", f.name, message
                )
    return message


def cli_flags() -> list[tuple[str, dict[str, Any]]]:
    """(flag, argparse keyword arguments) for each option; every default is
    None so that only the flags given override the defaults."""
    flags = []
    for f in dataclasses.fields(CompileOptions):
        flag = "--" + f.name.replace("_", "-")
        kwargs: dict[str, Any] = {"default": None, "help": f.metadata["help"]}
        if f.metadata["kind"] == "bool":
            kwargs["action"] = argparse.BooleanOptionalAction
        elif f.metadata["kind"] == "int":
            kwargs["type"] = int
            if f.metadata["choices"]:
                kwargs["choices"] = list(f.metadata["choices"])
        elif f.metadata["choices"]:
            kwargs["choices"] = [str(c) for c in f.metadata["choices"]]
        flags.append((flag, kwargs))
    return flags
