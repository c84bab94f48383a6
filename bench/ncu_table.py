"""The kernels of the last run in an Nsight Compute CSV
(--metrics gpu__time_duration.sum --csv): the longest tail of kernel names
that repeats just before itself (the warm-up may launch more, it encodes the
constants), with their durations, by kernel and in order.

    python3 bench/ncu_table.py profile.csv
"""

from __future__ import annotations

import collections
import csv
import sys


def main() -> None:
    with open(sys.argv[1]) as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    head, rows = rows[0], rows[1:]
    ki, vi = head.index("Kernel Name"), head.index("Metric Value")
    ks = [(r[ki].split("(")[0], float(r[vi].replace(",", ""))) for r in rows]
    names = [k for k, _ in ks]
    n = max(
        (m for m in range(1, len(ks) // 2 + 1) if names[-m:] == names[-2 * m : -m]),
        default=len(ks),
    )
    last = ks[-n:]
    total = sum(v for _, v in last) / 1e3
    print(f"{n} kernels in the last run, {total:.1f} us of kernel time")
    by: dict[str, list] = collections.defaultdict(lambda: [0, 0.0])
    for k, v in last:
        by[k][0] += 1
        by[k][1] += v / 1e3
    for k, (c, t) in sorted(by.items(), key=lambda x: -x[1][1]):
        print(f"{t:9.1f} us  {c:4d} x  {k}")
    print("\nin order:")
    for k, v in last:
        print(f"{v / 1e3:8.1f} us  {k}")


if __name__ == "__main__":
    main()
