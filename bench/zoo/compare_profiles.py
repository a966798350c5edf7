#!/usr/bin/env python3
"""Puts mlc's and ONNX Runtime's per-kernel times for one model side by side.

  mlc-run model.so -i x.npy --profile --bench 50 --threads 1 --profile-json mlc.json
  node bench/perf/ort/time_ort.js model.onnx OUT --runs 50 --threads 1 \\
       --profile ort.json x.npy
  bench/zoo/compare_profiles.py mlc.json ort.json [--depth 2]

The two sides fuse differently (mlc's conv3 + add + relu is one kernel,
ORT's too but named after its last node; mlc splits a Winograd convolution
into five kernels named after the one node), so kernels are matched by the
first DEPTH parts of their ONNX node path: /layer1/layer1.2/conv3/Conv falls
under /layer1/layer1.2 with --depth 2. Each row: the group, mlc's and ORT's
milliseconds per run and their ratio, the slowest mlc excess first. Names
without a path (ORT's ReorderOutput) are groups of their own.
"""

import argparse
import json
import sys
from collections import defaultdict


def group_key(name, depth):
    first = name.split("+")[0].strip()  # mlc: "a+b" or "a+2 more"
    if not first.startswith("/"):
        return first
    parts = [p for p in first.split("/") if p]
    # A node directly under the root (/fc/Gemm, /GlobalAveragePool) is
    # grouped by its first part.
    return "/" + "/".join(parts[:max(1, min(depth, len(parts) - 1))])


def load(path, side):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"compare_profiles: cannot read {side} profile '{path}': {e}")
    rows = data.get("kernels" if side == "mlc" else "nodes")
    if not isinstance(rows, list):
        sys.exit(f"compare_profiles: '{path}' is not an {side} profile "
                 f"(no '{'kernels' if side == 'mlc' else 'nodes'}' list)")
    return [(r["name"], float(r["ms_per_run"])) for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mlc", help="mlc-run --profile-json output")
    ap.add_argument("ort", help="time_ort.js --profile output")
    ap.add_argument("--depth", type=int, default=2,
                    help="node path parts that name a group (default 2)")
    args = ap.parse_args()
    if args.depth < 1:
        sys.exit("compare_profiles: --depth must be at least 1")
    sums = defaultdict(lambda: [0.0, 0.0])
    for i, side in enumerate(("mlc", "ort")):
        for name, ms in load(getattr(args, side), side):
            sums[group_key(name, args.depth)][i] += ms
    rows = sorted(sums.items(), key=lambda kv: kv[1][1] - kv[1][0])
    width = max(len("group"), *(len(k) for k in sums))
    print(f"{'group':<{width}}  {'mlc ms':>8}  {'ORT ms':>8}  {'mlc/ORT':>7}")
    for key, (m, o) in rows:
        ratio = f"{m / o:7.2f}" if o > 0 else "      -"
        print(f"{key:<{width}}  {m:8.3f}  {o:8.3f}  {ratio}")
    m, o = (sum(v[i] for v in sums.values()) for i in (0, 1))
    ratio = f"{m / o:7.2f}" if o > 0 else "      -"
    print(f"{'total':<{width}}  {m:8.3f}  {o:8.3f}  {ratio}")


if __name__ == "__main__":
    main()
