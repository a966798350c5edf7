#!/usr/bin/python3
"""Single convolution layers: mlc against ONNX Runtime, in GFLOP/s.

  bench/convs/run.py [--bin DIR] [--out DIR] [--runs 30] [--threads 1,2]
                     [--layers NAME,...] [--list]

Each layer is one `Conv2d` (+ bias, + ReLU where the network has one) at the
shape it has in a real network (ResNet-18/50, ResNeXt-50, RegNet-Y, the
MobileNets), exported to ONNX with PyTorch (seeded weights, opset 17). For
each layer and thread count, mlc (`mlc-run --bench`) and ONNX Runtime
(bench/perf/ort/time_ort.js) are timed in interleaved rounds after their
outputs were checked against PyTorch's. The table gives each side's median
in milliseconds, its GFLOP/s (2 per multiply-add) and mlc/ORT; the FMA peak
of one core (measured with ../shared/tools/fma_peak.c when it can be
compiled, else left out) turns mlc's figure into a fraction of the machine.

This is where a kernel's speed is looked at in isolation; bench/zoo/ says what
it does to whole networks. Nothing in the test suite is timed.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "perf"))

# name: (batch, cin, cout, hw, kernel, stride, groups, relu)
LAYERS = {
    "stem7x7s2": (1, 3, 64, 224, 7, 2, 1, True),
    "r18_3x3_56": (1, 64, 64, 56, 3, 1, 1, True),
    "r18_3x3_28": (1, 128, 128, 28, 3, 1, 1, True),
    "r18_3x3_14": (1, 256, 256, 14, 3, 1, 1, True),
    "r18_3x3_7": (1, 512, 512, 7, 3, 1, 1, True),
    "r50_1x1_56": (1, 256, 64, 56, 1, 1, 1, True),
    "r50_1x1_14": (1, 1024, 256, 14, 1, 1, 1, True),
    "r50_1x1_28": (1, 512, 128, 28, 1, 1, 1, True),
    "r50_1x1_7": (1, 2048, 512, 7, 1, 1, 1, True),
    "r50_1x1_7e": (1, 512, 2048, 7, 1, 1, 1, False),
    "r50_1x1s2_56": (1, 256, 512, 56, 1, 2, 1, False),
    "r50_3x3s2_56": (1, 128, 128, 56, 3, 2, 1, True),
    "r50_3x3s2_28": (1, 256, 256, 28, 3, 2, 1, True),
    "r50_3x3s2_14": (1, 512, 512, 14, 3, 2, 1, True),
    "dn_3x3_56": (1, 128, 32, 56, 3, 1, 1, False),
    "dn_3x3_14": (1, 128, 32, 14, 3, 1, 1, False),
    "sq_3x3_55": (1, 16, 64, 55, 3, 1, 1, True),
    "sq_3x3_13": (1, 64, 256, 13, 3, 1, 1, True),
    "gn_3x3_28": (1, 96, 128, 28, 3, 1, 1, True),
    "gn_3x3_28s": (1, 16, 32, 28, 3, 1, 1, True),
    "iv3_3x3_35": (1, 64, 96, 35, 3, 1, 1, True),
    "vgg_3x3_112": (1, 128, 128, 112, 3, 1, 1, True),
    "rx50_g32_56": (1, 128, 128, 56, 3, 1, 32, True),
    "rx50_g32_28": (1, 256, 256, 28, 3, 1, 32, True),
    "rx50_g32_7": (1, 1024, 1024, 7, 3, 1, 32, True),
    "regy_g8_56": (1, 48, 48, 56, 3, 1, 6, True),
    "regy_g8_14": (1, 208, 208, 14, 3, 1, 26, True),
    "dw3x3_112": (1, 32, 32, 112, 3, 1, 32, True),
    "dw3x3s2_112": (1, 96, 96, 112, 3, 2, 96, True),
    "dw3x3_14": (1, 384, 384, 14, 3, 1, 384, True),
    "dw5x5_14": (1, 480, 480, 14, 5, 1, 480, True),
    "dw3x3_7": (1, 960, 960, 7, 3, 1, 960, True),
    "mb_1x1_56": (1, 24, 144, 56, 1, 1, 1, False),
    "mb_1x1_7": (1, 160, 960, 7, 1, 1, 1, False),
}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.environ.get(
        "BIN_DIR", os.path.join(ROOT, "build", "bin")))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench-convs"))
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--layers", default="")
    ap.add_argument("--compile-flags", default="")
    ap.add_argument("--node", default="node")
    ap.add_argument("--list", action="store_true")
    return ap.parse_args()


def flops(spec):
    n, ci, co, hw, k, s, g, _ = spec
    o = (hw + 2 * (k // 2) - k) // s + 1
    return 2.0 * n * co * o * o * (ci // g) * k * k


def make(name, spec, out):
    """Exports the layer, its input and PyTorch's output (once)."""
    import torch
    import torch.nn as nn
    path = os.path.join(out, name + ".onnx")
    if os.path.exists(path):
        return path
    n, ci, co, hw, k, s, g, relu = spec
    torch.manual_seed(0)
    conv = nn.Conv2d(ci, co, k, s, k // 2, groups=g)
    model = nn.Sequential(conv, nn.ReLU()) if relu else conv
    model.eval()
    x = torch.randn(n, ci, hw, hw)
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, x, path, opset_version=17,
                      input_names=["x"], output_names=["y"])
    np.save(os.path.join(out, name + ".x.npy"), x.numpy())
    np.save(os.path.join(out, name + ".y.npy"), y.numpy())
    return path


def mlc_timer(args, so, x, threads):
    def run(runs):
        p = subprocess.run([os.path.join(args.bin, "mlc-run"), so, "-i", x,
                            "--bench", str(runs), "--bench-times",
                            "--warmup", "3", "--threads", str(threads)],
                           capture_output=True, text=True, check=True)
        line = [l for l in p.stdout.splitlines() if "times_ms=" in l][0]
        return [float(t) for t in line.split("times_ms=")[1].split(",")]
    return run


def ort_timer(args, onnx_path, x, threads, outdir):
    def run(runs):
        p = subprocess.run([args.node, os.path.join(ROOT, "bench", "perf", "ort",
                                                    "time_ort.js"),
                            onnx_path, outdir, "--runs", str(runs),
                            "--warmup", "3", "--threads", str(threads), x],
                           capture_output=True, text=True, check=True)
        return json.loads(p.stdout.strip().splitlines()[-1])["times_ms"]
    return run


def fma_peak(out):
    src = os.path.join(ROOT, "..", "shared", "tools", "fma_peak.c")
    exe = os.path.join(out, "fma_peak")
    if not os.path.exists(src):
        return None
    if not os.path.exists(exe):
        if subprocess.run(["cc", "-O3", "-funroll-all-loops", "-march=native",
                           "-fopenmp", src, "-o", exe]).returncode:
            return None
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run([exe], capture_output=True, text=True, env=env)
    try:
        return float(p.stdout.split("gflops=")[1].split()[0])
    except (IndexError, ValueError):
        return None


def main():
    args = parse_args()
    if args.list:
        for k, v in LAYERS.items():
            print(k, v, "%.3f GFLOP" % (flops(v) / 1e9))
        return 0
    os.makedirs(args.out, exist_ok=True)
    names = args.layers.split(",") if args.layers else list(LAYERS)
    threads = [int(t) for t in args.threads.split(",")]
    peak = fma_peak(args.out)
    print("one-core FMA peak: %s GFLOP/s" % (peak and "%.1f" % peak))
    rows = []
    for name in names:
        spec = LAYERS[name]
        onnx_path = make(name, spec, args.out)
        x = os.path.join(args.out, name + ".x.npy")
        ref = os.path.join(args.out, name + ".y.npy")
        so = os.path.join(args.out, name + ".so")
        subprocess.run([os.path.join(args.bin, "mlc-compile"), onnx_path, "-o",
                        so] + args.compile_flags.split(), check=True)
        ok = subprocess.run([os.path.join(args.bin, "mlc-run"), so, "-i", x,
                             "--expect", ref, "--rtol", "1e-3", "--atol",
                             "1e-3"], capture_output=True).returncode == 0
        for t in threads:
            sides = {"mlc": mlc_timer(args, so, x, t),
                     "ort": ort_timer(args, onnx_path, x, t,
                                      os.path.join(args.out, name + ".ort"))}
            times = {k: [] for k in sides}
            per = max(1, args.runs // args.rounds)
            for _ in range(args.rounds):
                for k, f in sides.items():
                    time.sleep(0.3)
                    times[k] += f(per)
            med = {k: float(np.median(v)) for k, v in times.items()}
            gf = {k: flops(spec) / v / 1e6 for k, v in med.items()}
            row = dict(layer=name, threads=t, ok=ok, **{
                k + "_ms": med[k] for k in med}, **{
                k + "_gflops": gf[k] for k in gf})
            row["mlc_vs_ort"] = med["mlc"] / med["ort"]
            if peak:
                row["mlc_peak_frac"] = gf["mlc"] / (peak * t)
            rows.append(row)
            print("%-14s t=%d %s mlc %8.3f ms %6.1f GF/s | ort %8.3f ms %6.1f "
                  "GF/s | mlc/ort %.2f%s" % (
                      name, t, "ok " if ok else "BAD", med["mlc"], gf["mlc"],
                      med["ort"], gf["ort"], row["mlc_vs_ort"],
                      " | %.0f%% of peak" % (100 * row["mlc_peak_frac"])
                      if peak else ""), flush=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"fma_peak_1core": peak, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
