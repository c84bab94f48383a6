"""FHEW/TFHE gate and programmable bootstrapping on the GPU (issue 16).

Throughput of each gate over a batch (default 16,384, VeloFHE's batch),
host-to-device and back included, and the latency of one gate and of one
lookup table over Z_4 (a 2-bit message with a padding bit); every output of
every batch decrypted against the truth table, and the first outputs
compared word for word with the CPU Evaluator's. Runs where the runtime's
Python module was built with the CUDA backend (bench/gpu_run.sh, TFHE=1):

    PYTHONPATH=build/python python3 bench/tfhe_gpu.py [--set STD128]
        [--batch 16384] [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import ember_runtime as er
import numpy as np

tfhe = er.tfhe

TRUTH = {
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "NAND": lambda a, b: 1 - (a & b),
    "NOR": lambda a, b: 1 - (a | b),
    "XOR": lambda a, b: a ^ b,
    "XNOR": lambda a, b: 1 - (a ^ b),
}


def encrypt_rows(sk, values, p: int) -> np.ndarray:
    return np.stack([sk.encrypt(int(v), p).row() for v in values])


def decrypt_rows(sk, rows: np.ndarray, q: int, p: int) -> list[int]:
    return [sk.decrypt(tfhe.Ciphertext.from_row(r, q), p) for r in rows]


def timed(fn, runs: int) -> tuple[float, object]:
    out, times = None, []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def keys_for(name: str):
    """The set, a secret key, its evaluation keys and their keygen time."""
    params = tfhe.Params.named(name)
    t0 = time.perf_counter()
    sk = tfhe.SecretKey(params)
    keys = tfhe.EvaluationKeys(sk)
    return params, sk, keys, time.perf_counter() - t0


def lut16(name: str, batch: int, lat_runs: int, runs: int, rng) -> dict:
    """Tables over Z_16 (4-bit messages with a padding bit) at `name`: the
    latency of one, and a batch of min(batch, 4096) (every output decrypted,
    the first compared word for word with the CPU's)."""
    params, sk, keys, keygen_s = keys_for(name)
    cpu, gpu = tfhe.Evaluator(keys), tfhe.CudaEvaluator(keys)
    q, size = params.q, min(batch, 4096)
    table = [int(x) for x in rng.integers(0, 16, 16)]
    msgs = rng.integers(0, 16, size)
    rows = encrypt_rows(sk, msgs, 32)
    gpu.lut(rows[:16], table)  # warm-up
    one_s, _ = timed(lambda: gpu.lut(rows[:1], table), lat_runs)
    one_timing = gpu.last_timing
    # Clusters beyond the portable 8 (12 blocks of one row) for contrast
    # (modulus raising: always 4 blocks).
    os.environ["EMBER_TFHE_CLUSTER_BLOCKS"] = "16"
    wide = gpu if params.raising else tfhe.CudaEvaluator(keys)
    del os.environ["EMBER_TFHE_CLUSTER_BLOCKS"]
    wide_s, wide_out = timed(lambda: wide.lut(rows[:1], table), lat_runs)
    batch_s, out = timed(lambda: gpu.lut(rows, table), runs)
    wrong = sum(
        int(g != table[int(m)])
        for g, m in zip(decrypt_rows(sk, out, q, 32), msgs, strict=True)
    )
    same = np.array_equal(
        out[0], cpu.lut(tfhe.Ciphertext.from_row(rows[0], q), table).row()
    )
    noise = params.noise()
    row = {
        "set": name,
        "keygen_s": keygen_s,
        "bootstrap_key_mb": keys.bootstrap_key_bytes / 1e6,
        "key_switch_key_mb": keys.key_switch_key_bytes / 1e6,
        "log2_failure": noise["log2_lut_failure"][16],
        "latency_ms": one_s * 1e3,
        "latency_stages_ms": one_timing,
        "batch": size,
        "batch_ms": batch_s * 1e3,
        "per_s": size / batch_s,
        "wrong": wrong,
        "cpu_identical_first": same,
        "cluster_blocks": gpu.cluster_blocks,
        "wide_cluster_blocks": wide.cluster_blocks,
        "wide_latency_ms": wide_s * 1e3,
        "wide_same": bool(np.array_equal(wide_out[0], out[0])),
    }
    print(
        f"LUT over Z_16 at {name} (failure 2^{row['log2_failure']:.1f}, keys "
        f"{row['bootstrap_key_mb']:.0f} + {row['key_switch_key_mb']:.0f} MB): one "
        f"{one_s * 1e3:.2f} ms on {gpu.cluster_blocks} blocks (rotation "
        f"{one_timing['blind_rotation_ms']:.2f}, switch "
        f"{one_timing['key_switch_ms']:.3f}), {wide_s * 1e3:.2f} ms on "
        f"{wide.cluster_blocks} (same words {row['wide_same']}); batch {size}: "
        f"{size / batch_s:.0f}/s; wrong {wrong}, CPU-identical {same}",
        flush=True,
    )
    return row


def gates_at(name: str, batch: int, lat_runs: int, runs: int, rng) -> dict:
    """NAND at another set (AP/DM, say): the latency of one gate and a
    batch of min(batch, 4096) (every output decrypted, the first compared
    word for word with the CPU's)."""
    params, sk, keys, keygen_s = keys_for(name)
    cpu, gpu = tfhe.Evaluator(keys), tfhe.CudaEvaluator(keys)
    q, size = params.q, min(batch, 4096)
    x, y = rng.integers(0, 2, size), rng.integers(0, 2, size)
    a, b = encrypt_rows(sk, x, 4), encrypt_rows(sk, y, 4)
    gpu.gate("NAND", a[:16], b[:16])  # warm-up
    one_s, _ = timed(lambda: gpu.gate("NAND", a[:1], b[:1]), lat_runs)
    one_timing = gpu.last_timing
    batch_s, out = timed(lambda: gpu.gate("NAND", a, b), runs)
    wrong = sum(
        int(g != 1 - (int(u) & int(v)))
        for g, u, v in zip(decrypt_rows(sk, out, q, 4), x, y, strict=True)
    )
    first = cpu.gate(
        "NAND",
        tfhe.Ciphertext.from_row(a[0], q),
        tfhe.Ciphertext.from_row(b[0], q),
    )
    row = {
        "set": name,
        "keygen_s": keygen_s,
        "bootstrap_key_mb": keys.bootstrap_key_bytes / 1e6,
        "log2_gate_failure": params.noise()["log2_gate_failure"],
        "latency_ms": one_s * 1e3,
        "latency_stages_ms": one_timing,
        "batch": size,
        "per_s": size / batch_s,
        "wrong": wrong,
        "cpu_identical_first": bool(np.array_equal(out[0], first.row())),
        "cluster_blocks": gpu.cluster_blocks,
    }
    print(
        f"NAND at {name} (failure 2^{row['log2_gate_failure']:.1f}, key "
        f"{row['bootstrap_key_mb']:.0f} MB): one {one_s * 1e3:.2f} ms on "
        f"{gpu.cluster_blocks} blocks (rotation "
        f"{one_timing['blind_rotation_ms']:.2f}), batch {size}: "
        f"{size / batch_s:.0f}/s; wrong {wrong}, CPU-identical "
        f"{row['cpu_identical_first']}",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--set", default="STD128")
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument(
        "--sweep",
        default="1,2,4,8,16,33,64,132",
        help="batch sizes at which NAND is timed with the cluster kernel and without",
    )
    ap.add_argument(
        "--lut16-set",
        default="STD128_4BIT,STD128_4BIT_MR",
        help="also time tables over Z_16 at these sets ('' skips)",
    )
    ap.add_argument(
        "--gate-sets",
        default="STD128_AP",
        help="also time NAND at these sets ('' skips)",
    )
    ap.add_argument(
        "--min-blocks",
        default="",
        help="also time AND at these EMBER_TFHE_MIN_BLOCKS (e.g. 1,6,7)",
    )
    args = ap.parse_args()

    params = tfhe.Params.named(args.set)
    rng = np.random.default_rng()
    t0 = time.perf_counter()
    sk = tfhe.SecretKey(params)
    keys = tfhe.EvaluationKeys(sk)
    keygen_s = time.perf_counter() - t0
    cpu = tfhe.Evaluator(keys)
    gpu = tfhe.CudaEvaluator(keys)
    q = params.q
    result = {
        "device": gpu.device_name,
        "set": args.set,
        "batch": args.batch,
        "runs": args.runs,
        "keygen_s": keygen_s,
        "bootstrap_key_mb": keys.bootstrap_key_bytes / 1e6,
        "key_switch_key_mb": keys.key_switch_key_bytes / 1e6,
        "log2_gate_failure": params.noise()["log2_gate_failure"],
        "gates": {},
    }
    a_bits = rng.integers(0, 2, args.batch)
    b_bits = rng.integers(0, 2, args.batch)
    a_rows = encrypt_rows(sk, a_bits, 4)
    b_rows = encrypt_rows(sk, b_bits, 4)
    gpu.gate("AND", a_rows[:64], b_rows[:64])  # warm-up
    for gate, fn in TRUTH.items():
        seconds, out = timed(lambda g=gate: gpu.gate(g, a_rows, b_rows), args.runs)
        timing = gpu.last_timing
        want = [fn(int(x), int(y)) for x, y in zip(a_bits, b_bits, strict=True)]
        got = decrypt_rows(sk, out, q, 4)
        wrong = sum(int(g != w) for g, w in zip(got, want, strict=True))
        same = all(
            np.array_equal(
                out[i],
                cpu.gate(
                    gate,
                    tfhe.Ciphertext.from_row(a_rows[i], q),
                    tfhe.Ciphertext.from_row(b_rows[i], q),
                ).row(),
            )
            for i in range(min(4, args.batch))
        )
        result["gates"][gate] = {
            "batch_ms": seconds * 1e3,
            "gates_per_s": args.batch / seconds,
            "stages_ms": timing,
            "wrong": wrong,
            "cpu_identical_first4": same,
        }
        print(
            f"{gate:5s} batch {args.batch}: {seconds * 1e3:8.1f} ms "
            f"({args.batch / seconds:9.0f} gates/s; blind rotation "
            f"{timing['blind_rotation_ms']:.1f} ms, key switch "
            f"{timing['key_switch_ms']:.1f} ms), wrong {wrong}, "
            f"CPU-identical {same}",
            flush=True,
        )

    # Latency: one gate, one lookup table over Z_4 (2-bit message).
    lat_runs = max(11, args.runs)
    one_a, one_b = a_rows[:1], b_rows[:1]
    gate_s, _ = timed(lambda: gpu.gate("NAND", one_a, one_b), lat_runs)
    table = [int(x) for x in rng.integers(0, 4, 4)]
    msgs = rng.integers(0, 4, args.batch)
    lut_rows = encrypt_rows(sk, msgs, 8)
    lut_s, _ = timed(lambda: gpu.lut(lut_rows[:1], table), lat_runs)
    batch_lut_s, lut_out = timed(lambda: gpu.lut(lut_rows, table), args.runs)
    lut_wrong = sum(
        int(g != table[int(m)])
        for g, m in zip(decrypt_rows(sk, lut_out, q, 8), msgs, strict=True)
    )
    result["latency_ms"] = {"gate": gate_s * 1e3, "lut4": lut_s * 1e3}
    result["lut4_batch"] = {
        "batch_ms": batch_lut_s * 1e3,
        "per_s": args.batch / batch_lut_s,
        "wrong": lut_wrong,
        "log2_failure": params.noise()["log2_lut_failure"][4],
    }
    print(
        f"latency: gate {gate_s * 1e3:.2f} ms, LUT over Z_4 {lut_s * 1e3:.2f} ms; "
        f"LUT batch {args.batch / batch_lut_s:.0f}/s, wrong {lut_wrong}"
    )
    # Small batches: the thread-block cluster kernel against one block per
    # ciphertext (EMBER_TFHE_CLUSTER_JOBS=0), stage by stage.
    os.environ["EMBER_TFHE_CLUSTER_JOBS"] = "0"
    plain = tfhe.CudaEvaluator(keys)
    del os.environ["EMBER_TFHE_CLUSTER_JOBS"]
    # The cluster kernel without its fast path (UnitNtt): generic NTTs.
    os.environ["EMBER_TFHE_CLUSTER_FAST"] = "0"
    generic = tfhe.CudaEvaluator(keys)
    del os.environ["EMBER_TFHE_CLUSTER_FAST"]
    result["cluster"] = {
        "blocks": gpu.cluster_blocks,
        "max_jobs": gpu.cluster_jobs,
        "sweep": [],
    }
    print(f"cluster kernel: {gpu.cluster_blocks} blocks, batches <= {gpu.cluster_jobs}")
    for size in [int(x) for x in args.sweep.split(",") if x]:
        size = min(size, args.batch)
        row = {"batch": size}
        for label, ev in (
            ("cluster", gpu),
            ("cluster_generic", generic),
            ("one_block", plain),
        ):
            if label != "one_block" and size > gpu.cluster_jobs:
                os.environ["EMBER_TFHE_CLUSTER_JOBS"] = str(size)
                if label == "cluster_generic":
                    os.environ["EMBER_TFHE_CLUSTER_FAST"] = "0"
                ev = tfhe.CudaEvaluator(keys)
                os.environ.pop("EMBER_TFHE_CLUSTER_JOBS")
                os.environ.pop("EMBER_TFHE_CLUSTER_FAST", None)
            seconds, out = timed(
                lambda e=ev, n=size: e.gate("NAND", a_rows[:n], b_rows[:n]), lat_runs
            )
            timing = ev.last_timing
            got = decrypt_rows(sk, out, q, 4)
            wrong = sum(
                int(g != 1 - (int(x) & int(y)))
                for g, x, y in zip(got, a_bits[:size], b_bits[:size], strict=True)
            )
            same = np.array_equal(
                out[0],
                cpu.gate(
                    "NAND",
                    tfhe.Ciphertext.from_row(a_rows[0], q),
                    tfhe.Ciphertext.from_row(b_rows[0], q),
                ).row(),
            )
            row[label] = {
                "ms": seconds * 1e3,
                "blind_rotation_ms": timing["blind_rotation_ms"],
                "key_switch_ms": timing["key_switch_ms"],
                "wrong": wrong,
                "cpu_identical_first": same,
            }
        result["cluster"]["sweep"].append(row)
        c, g, o = row["cluster"], row["cluster_generic"], row["one_block"]
        print(
            f"NAND x{size:4d}: cluster {c['ms']:7.2f} ms (rotation "
            f"{c['blind_rotation_ms']:.2f}, switch {c['key_switch_ms']:.3f}), "
            f"generic NTTs {g['ms']:7.2f} ms (wrong {g['wrong']}, CPU-identical "
            f"{g['cpu_identical_first']}), "
            f"one block {o['ms']:7.2f} ms (rotation {o['blind_rotation_ms']:.2f}, "
            f"switch {o['key_switch_ms']:.3f}); wrong {c['wrong']}/{o['wrong']}, "
            f"CPU-identical {c['cpu_identical_first']}/{o['cpu_identical_first']}",
            flush=True,
        )
    result["gate_sets"] = [
        gates_at(name, args.batch, lat_runs, args.runs, rng)
        for name in args.gate_sets.split(",")
        if name
    ]
    result["lut16"] = [
        lut16(name, args.batch, lat_runs, args.runs, rng)
        for name in args.lut16_set.split(",")
        if name
    ]
    result["min_blocks"] = {}
    for v in [x for x in args.min_blocks.split(",") if x]:
        os.environ["EMBER_TFHE_MIN_BLOCKS"] = v
        variant = tfhe.CudaEvaluator(keys)
        variant.gate("AND", a_rows[:64], b_rows[:64])
        seconds, out = timed(
            lambda ev=variant: ev.gate("AND", a_rows, b_rows), args.runs
        )
        same = np.array_equal(out, gpu.gate("AND", a_rows, b_rows))
        result["min_blocks"][v] = {"gates_per_s": args.batch / seconds, "same": same}
        print(
            f"EMBER_TFHE_MIN_BLOCKS={v}: AND {args.batch / seconds:.0f} "
            f"gates/s, same {same}"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
