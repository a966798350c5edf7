#!/usr/bin/python3
"""Compile time and peak memory of the model zoo, one or more mlc-compiles.

  bench/zoo/compile_times.py [--models DIR] [--bin build/bin] [--bin OTHER]
                             [--rounds 2] [--out FILE.json] [names...]

Compiles every bench/zoo model (DIR, default build/bench-zoo/models/opset17,
as bench/zoo/make_models.py writes them) with each --bin's mlc-compile in
turn, round after round (sides interleaved, so a busy machine slows both),
and checks each model.so against PyTorch's reference with that --bin's
mlc-run before its times count. Per model and binary: the best wall time of
the rounds (`/usr/bin/time`, the whole process: import to link), the peak
RSS of that run, and the weights' size (the .onnx file's, which is nearly
all weights). Prints a markdown table and writes every figure to --out.
Extra mlc-compile flags: --flags "...". The header names the CPU (model,
family, vector ISA) and how fast this machine writes memory it touches for
the first time, which on some VMs decides a large model's time
(bench/zoo/machine.py).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import machine

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def compile_once(bin_dir, model, out, flags):
    """(seconds, peak RSS MiB) of one compile, or raises with its stderr."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", t.name,
               os.path.join(bin_dir, "mlc-compile"), model, "-o", out] + flags
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.strip().splitlines()[-1]
                               if p.stderr.strip() else "exit %d" % p.returncode)
        seconds, kib = t.read().split()[-2:]
    return float(seconds), int(kib) / 1024.0


def check(bin_dir, so, models_dir, name):
    """mlc-run --expect against PyTorch's reference (the zoo's tolerance)."""
    cmd = [os.path.join(bin_dir, "mlc-run"), so,
           "-i", os.path.join(models_dir, name + ".in0.npy"),
           "--expect", os.path.join(models_dir, name + ".out0.npy"),
           "--rtol", "1e-2", "--atol", "1e-3"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip().splitlines()[-1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=os.path.join(
        ROOT, "build", "bench-zoo", "models", "opset17"))
    ap.add_argument("--bin", action="append",
                    help="a directory with mlc-compile and mlc-run "
                         "(repeat to compare; default build/bin)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--flags", default="", help="extra mlc-compile flags")
    ap.add_argument("--out", help="write every figure here (JSON)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    bins = args.bin or [os.path.join(ROOT, "build", "bin")]
    names = args.names or sorted(
        f[:-5] for f in os.listdir(args.models) if f.endswith(".onnx"))
    if not names:
        sys.exit("no .onnx models in %s (bench/zoo/make_models.py makes them)"
                 % args.models)
    flags = args.flags.split()
    # Each model.so is checked, then overwritten by the next round's: the
    # folder holds one per model and binary (3 GB for the zoo), removed at
    # the end, also after an error.
    work = tempfile.mkdtemp(prefix="mlc-compile-times-")
    try:
        # Where the model.so files go, so the new-file figure is that disk's.
        memory = machine.memory_probe(work)
        run_all(args, names, bins, flags, work, memory)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_all(args, names, bins, flags, work, memory):
    results = {n: {"weights_mb": os.path.getsize(
        os.path.join(args.models, n + ".onnx")) / 1e6, "runs": {}}
        for n in names}
    for r in range(args.rounds):
        for name in names:
            model = os.path.join(args.models, name + ".onnx")
            for b, bin_dir in enumerate(bins):
                entry = results[name]["runs"].setdefault(bin_dir, {})
                if "error" in entry:
                    continue
                so = os.path.join(work, "%s-%d.so" % (name, b))
                try:
                    seconds, rss = compile_once(bin_dir, model, so, flags)
                except RuntimeError as e:
                    entry["error"] = str(e)
                    continue
                if r == 0:
                    ok, why = check(bin_dir, so, args.models, name)
                    if not ok:
                        entry["error"] = "wrong outputs: %s" % why
                        continue
                if seconds < entry.get("seconds", float("inf")):
                    entry.update(seconds=seconds, peak_rss_mib=rss)
                print("round %d %-20s %s: %.1f s, %.0f MiB" %
                      (r + 1, name, bin_dir, seconds, rss), file=sys.stderr)
    header = "| model | weights MB | " + " | ".join(
        "%s s / peak MiB" % b for b in bins) + " |"
    cpu = machine.cpu_info()
    print("CPU: %s; best of %d rounds" %
          (machine.describe_cpu(cpu, os.cpu_count()), args.rounds))
    print("Fresh memory, %d MiB: first touch %.2f GB/s, into a new file "
          "%.2f GB/s" % (memory["mib"], memory["first_touch_gb_s"],
                         memory["new_file_gb_s"]))
    print(header)
    print("|" + "---|" * (2 + len(bins)))
    for name in names:
        cells = []
        for bin_dir in bins:
            e = results[name]["runs"].get(bin_dir, {})
            cells.append(e["error"] if "error" in e else
                         "%.1f / %.0f" % (e["seconds"], e["peak_rss_mib"]))
        print("| %s | %.0f | %s |" % (name, results[name]["weights_mb"],
                                      " | ".join(cells)))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"cpu": cpu["cpu"], "family_model": cpu["family_model"],
                       "isa": cpu["isa"], "cpus": os.cpu_count(),
                       "memory": memory, "rounds": args.rounds,
                       "flags": flags, "models": results}, f, indent=1)


if __name__ == "__main__":
    main()
