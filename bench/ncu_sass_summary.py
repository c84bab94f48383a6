"""Summarise an Nsight Compute SASS source page (ncu -i R --page source --csv
--print-source sass): the columns, the instructions with the most warp-stall
samples (and their neighbours' text), and the samples by opcode. Used by
bench/gpu_run.sh (TFHE_NCU) to keep a profile's evidence small."""

from __future__ import annotations

import csv
import sys
from collections import Counter


def main() -> None:
    rows = list(csv.reader(open(sys.argv[1], newline="")))
    start = next(i for i, r in enumerate(rows) if "Source" in r and len(r) > 3)
    header, body = rows[start], rows[start + 1 :]
    print("columns:", header)
    col = {h: i for i, h in enumerate(header)}
    samples = next(h for h in header if h.startswith("Warp Stall Sampling (All"))
    executed = next((h for h in header if h == "Instructions Executed"), None)

    def num(r: list[str], h: str) -> float:
        try:
            return float(r[col[h]].replace(",", ""))
        except (ValueError, IndexError):
            return 0.0

    body = [r for r in body if len(r) == len(header)]
    total = sum(num(r, samples) for r in body)
    print(f"instructions {len(body)}, stall samples {total:.0f}")
    if executed:
        print(f"warp instructions executed {sum(num(r, executed) for r in body):.0f}")
    ops: Counter[str] = Counter()
    for r in body:
        op = r[col["Source"]].split()[0] if r[col["Source"]].split() else "?"
        if op.startswith("@"):
            op = r[col["Source"]].split()[1]
        ops[op.split(".")[0]] += num(r, samples)
    print("samples by opcode:")
    for op, v in ops.most_common(25):
        print(f"  {op:10s} {100 * v / total:5.1f}%")
    top = sorted(range(len(body)), key=lambda i: -num(body[i], samples))[:40]
    print("top instructions (index, % samples, executed, text):")
    for i in sorted(top):
        r = body[i]
        ex = f"{num(r, executed):.0f}" if executed else ""
        share = 100 * num(r, samples) / total
        print(f"  {i:5d} {share:5.1f}% {ex:>8s}  {r[col['Source']]}")


if __name__ == "__main__":
    main()
