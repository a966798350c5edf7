#!/usr/bin/python3
"""mlc's CUDA models against PyTorch on the same GPU, in one run.

Two steps, because the GPU machine has PyTorch but not LLVM/MLIR 22 and the
build machine has no GPU:

  run.py prepare [--bin build/bin] [--out DIR] [--models A,B]
      (on the build machine) makes the models (bench/perf/make_models.py:
      resnet18_b32, transformer_b8, sgemm_4096, conv3x3_b32 (one 3x3
      convolution, 128 -> 128 on 28x28); ONNX + inputs + PyTorch outputs)
      and compiles each with mlc-compile --target=cuda into DIR (default
      build/bench/cuda). The GPU machine needs only DIR's NAME.so and
      NAME.json, runtime/python and bench/ (ResNet-18's model.so holds its
      weights: 47 MB, about 180 MB with the Winograd filters).

  run.py measure [--dir DIR] [--runs N] [--rounds R] [--models A,B]
      (on the GPU machine) draws random inputs on the GPU, loads each
      model.so with the Python binding, checks its output (poisoned with NaN
      first) against PyTorch's on the GPU (rtol 1e-3; the relative L2 error
      is printed too), then times mlc (Model.run_device on
      torch CUDA tensors: no host copies) and PyTorch eager (cuDNN on, TF32
      off everywhere, so both sides compute in fp32) in alternating rounds,
      each call followed by a synchronization. sgemm_4096's PyTorch side is
      torch.matmul: cuBLAS. Prints a table of medians and mlc's share of
      PyTorch's speed; --json FILE writes every time; --kernels N prints
      each model's N slowest GPU kernels of one call.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = ("resnet18_b32", "transformer_b8", "sgemm_4096", "conv3x3_b32")


def prepare(args):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "perf",
                                                 "make_models.py"),
                    "--out", out] + args.models.split(","), check=True)
    for name in args.models.split(","):
        report = os.path.join(out, name + ".report.json")
        subprocess.run([os.path.join(args.bin, "mlc-compile"),
                        os.path.join(out, name + ".onnx"), "--target=cuda",
                        "--report", report,
                        "-o", os.path.join(out, name + ".so")], check=True)
        # What ptxas said of the sm_90 kernels: a spill or a stack frame
        # in a hot kernel is worth knowing before timing it.
        with open(report) as f:
            kernels = [k for k in json.load(f)["cuda_kernels"]
                       if k["chip"] == "sm_90"]
        print("compiled %s: %d kernels, %d shared-memory tiled, max %d "
              "registers, %d with a stack frame or spills" % (
                  name, len(kernels),
                  sum(k["shared_bytes"] > 0 for k in kernels),
                  max(k["registers"] for k in kernels),
                  sum(k["stack_bytes"] + k["spill_store_bytes"] > 0
                      for k in kernels)))


def measure(args):
    import torch
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    sys.path.insert(0, os.path.join(ROOT, "bench", "perf"))
    import mlc
    import make_models

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    rows, record = [], {"gpu": torch.cuda.get_device_name(0),
                        "torch": torch.__version__, "models": {}}
    for name in args.models.split(","):
        meta = json.load(open(os.path.join(args.dir, name + ".json")))
        torch.manual_seed(0)  # the weights make_models.py exported
        module, shapes = make_models.MODELS[name][0]()
        module = module.eval().to(dev)
        # Fresh inputs drawn on the GPU (the saved .npy of a 4096^2 SGEMM
        # would be 128 MB to carry); both sides see the same ones.
        gen = torch.Generator(device=dev)
        gen.manual_seed(args.seed)
        xs = [torch.randn(s, device=dev, generator=gen) for s in shapes]
        m = mlc.load(os.path.join(args.dir, name + ".so"))
        out_name, _, out_shape = m.outputs[0]
        y = torch.empty(out_shape, dtype=torch.float32, device=dev)
        feeds = {n: x.data_ptr() for (n, _, _), x in zip(m.inputs, xs)}

        def run_mlc():
            m.run_device(feeds, {out_name: y.data_ptr()})

        def run_torch():
            with torch.no_grad():
                return module(*xs)

        y.fill_(float("nan"))  # every element must be written
        run_mlc()
        ref = run_torch()
        torch.cuda.synchronize()
        err = (y - ref).abs().max().item()
        scale = ref.abs().max().item()
        rel = ((y.double() - ref.double()).norm() /
               ref.double().norm()).item()
        ok = bool(torch.isfinite(y).all()) and torch.allclose(
            y, ref, rtol=1e-3, atol=1e-3 * scale)
        print("%s: max abs error %.3g (reference max %.3g), relative "
              "L2 error %.3g%s" % (name, err, scale, rel,
                                   "" if ok else "  MISMATCH"), flush=True)
        times = {"mlc": [], "torch": []}
        for _ in range(args.rounds):
            for side, fn in (("mlc", run_mlc), ("torch", run_torch)):
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    fn()
                    torch.cuda.synchronize()
                    times[side].append((time.perf_counter() - t0) * 1e3)
        med = {k: statistics.median(v) for k, v in times.items()}
        if args.kernels:
            record_kernels(name, run_mlc, args.kernels, record)
        rows.append((name, med["mlc"], med["torch"], meta["flops"], ok))
        record["models"].setdefault(name, {}).update({
            "ms": times, "flops": meta["flops"], "max_abs_error": err,
            "relative_l2_error": rel, "matches": ok})
    print("\n| model | mlc ms | PyTorch ms | mlc TFLOP/s | mlc speed / "
          "PyTorch's |\n|---|---:|---:|---:|---:|")
    for name, a, b, flops, ok in rows:
        print("| %s | %.3f | %.3f | %.2f | %.0f%%%s |" %
              (name, a, b, flops / a / 1e9, 100 * b / a,
               "" if ok else " (WRONG)"))
    if args.json:
        json.dump(record, open(args.json, "w"), indent=1)
    return 0 if all(r[4] for r in rows) else 1


def record_kernels(name, run_mlc, top, record):
    """Prints the top GPU kernels of one mlc call by time, as CUPTI (through
    torch.profiler) saw them: where a model's time goes, without counters."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            run_mlc()
            torch.cuda.synchronize()
        rows = {}
        for ev in prof.events():
            if ev.device_type != torch.autograd.DeviceType.CUDA:
                continue
            n, t = rows.get(ev.name, (0, 0.0))
            rows[ev.name] = (n + 1, t + ev.device_time_total)
    except Exception as e:  # a profiler problem must not fail the bench
        print("%s: no kernel profile (%s)" % (name, e))
        return
    total = sum(t for _, t in rows.values())
    print("%s: %d kernels, %.3f ms on the GPU in one call; top %d:" %
          (name, sum(n for n, _ in rows.values()), total / 1e3, top))
    for k, (n, t) in sorted(rows.items(), key=lambda r: -r[1][1])[:top]:
        print("  %8.1f us %5.1f%% x%-3d %s" % (t, 100 * t / max(total, 1e-9),
                                               n, k[:90]))
    record["models"].setdefault(name, {})["kernels_us"] = {
        k: t for k, (_, t) in rows.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--models", default=",".join(MODELS),
                   help="comma-separated subset (default: all)")
    p.add_argument("--out", default=os.path.join(ROOT, "build", "bench",
                                                 "cuda"))
    m = sub.add_parser("measure")
    m.add_argument("--dir", default=os.path.join(ROOT, "build", "bench",
                                                 "cuda"))
    m.add_argument("--runs", type=int, default=20)
    m.add_argument("--rounds", type=int, default=3)
    m.add_argument("--json")
    m.add_argument("--models", default=",".join(MODELS),
                   help="comma-separated subset (default: all)")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--kernels", type=int, default=0, metavar="N",
                   help="print each model's N slowest GPU kernels of one "
                   "call (torch.profiler)")
    args = ap.parse_args()
    if args.step == "prepare":
        prepare(args)
        return 0
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
