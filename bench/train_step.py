#!/usr/bin/python3
"""Times one training step (forward + backward + optimizer update) of mlc
and of PyTorch, in the same run on the same machine, on the digits MLP and
CNN at their training batch (models/digits_mlp, models/digits_cnn).

mlc: the model is compiled here with `mlc-compile --train` and stepped
through the Python binding (runtime/python/mlc): m.train_step(x, y) -> loss.
PyTorch: the equivalent nn.Module of models/digits/train_torch.py (checked
against the model.json graph), the same optimizer and hyper-parameters from
the model.json, torch.set_num_threads(2) by default; one step is
zero_grad, forward, cross-entropy, backward, optimizer.step.

Both step on the same batch (the first batch_size training rows of the
digits data when models/digits/prepare_data.py has been run, else a fixed
random batch of the same shape), after --warmup steps, --runs times each;
the runs alternate between mlc and PyTorch in --rounds rounds so that drift
on the machine affects both alike, and each side's best round median is
reported.

usage: /usr/bin/python3 bench/train_step.py [--models mlp cnn] [--runs 100]
          [--mlc-compile build/bin/mlc-compile] [--json out.json]
          [--torch-threads 2] [--skip-mlc]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "models", "digits"))
sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
import train_torch  # noqa: E402


def batch_for(kind, model, data_dir):
    b = model.training["batch_size"]
    shape = [b] + model.inputs[0][2][1:]
    suffix = "_img" if kind == "cnn" else ""
    xf = os.path.join(data_dir, "X_train%s.npy" % suffix)
    yf = os.path.join(data_dir, "y_train.npy")
    if os.path.exists(xf) and os.path.exists(yf):
        x, y = np.load(xf)[:b], np.load(yf)[:b]
        source = "digits"
    else:
        rng = np.random.default_rng(0)
        x = rng.random(shape, dtype=np.float32)
        y = rng.integers(0, 10, size=b).astype(np.int64)
        source = "random"
    return (np.ascontiguousarray(x, np.float32).reshape(shape),
            np.ascontiguousarray(y, np.int64), source)


def time_steps(step, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        step()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", choices=["mlp", "cnn"],
                    default=["mlp", "cnn"])
    ap.add_argument("--runs", type=int, default=100,
                    help="timed steps per round and side (>= 30)")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--mlc-compile", default=os.path.join(
        os.environ.get("BIN_DIR", os.path.join(ROOT, "build", "bin")),
        "mlc-compile"), help="mlc-compile to use (default $BIN_DIR or "
                             "build/bin)")
    ap.add_argument("--compile-flags", default="",
                    help="extra mlc-compile flags, e.g. '-O3 --mcpu=native'")
    ap.add_argument("--torch-threads", type=int, default=2)
    ap.add_argument("--data", default=os.path.join(ROOT, "models", "digits",
                                                   "data"))
    ap.add_argument("--skip-mlc", action="store_true",
                    help="time PyTorch only (no mlc build needed)")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    if args.runs < 30:
        ap.error("--runs must be at least 30")
    torch.set_num_threads(args.torch_threads)
    if not args.skip_mlc:
        import mlc
        if not os.access(args.mlc_compile, os.X_OK):
            sys.exit("train_step.py: error: %s not found; build mlc "
                     "(scripts/build.sh) or pass --mlc-compile, or "
                     "--skip-mlc" % args.mlc_compile)

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.models:
            model, net, params = train_torch.build(kind)
            x, y, source = batch_for(kind, model, args.data)
            train_torch.set_weights(params, model.initial_weights())
            opt = train_torch.make_optimizer(model, net)
            loss_fn = torch.nn.CrossEntropyLoss()
            tx, ty = torch.from_numpy(x), torch.from_numpy(y)
            torch_losses = []

            def torch_step():
                opt.zero_grad()
                loss = loss_fn(net(tx), ty)
                loss.backward()
                opt.step()
                return loss.item()

            sides = {"torch": torch_step}
            mlc_losses = []
            if not args.skip_mlc:
                so = os.path.join(tmp, kind + ".train.so")
                cmd = ([args.mlc_compile, "--train"] +
                       args.compile_flags.split() +
                       [train_torch.MODEL_JSON[kind], "-o", so])
                subprocess.run(cmd, check=True)
                m = mlc.load(so)
                sides["mlc"] = lambda: m.train_step(x, y)
                mlc_losses.append(float(sides["mlc"]()))
            torch_losses.append(torch_step())
            for step in sides.values():
                for _ in range(args.warmup):
                    step()
            best = {}
            for _ in range(args.rounds):
                for name, step in sides.items():
                    t = time_steps(step, args.runs)
                    best[name] = min(best.get(name, t), t)
            torch_losses.append(torch_step())
            if mlc_losses:
                mlc_losses.append(float(sides["mlc"]()))
            r = {"model": model.name, "batch": int(x.shape[0]),
                 "data": source, "torch_ms": best["torch"],
                 "torch_threads": args.torch_threads,
                 "torch_loss_first_last": torch_losses}
            if "mlc" in best:
                r.update(mlc_ms=best["mlc"], ratio=best["mlc"] / best["torch"],
                         mlc_loss_first_last=mlc_losses)
            results.append(r)

    print("%-12s %6s %10s %10s %12s" % ("model", "batch", "mlc ms",
                                         "torch ms", "mlc/torch"))
    for r in results:
        print("%-12s %6d %10s %10.4f %12s" % (
            r["model"], r["batch"],
            "%.4f" % r["mlc_ms"] if "mlc_ms" in r else "-", r["torch_ms"],
            "%.3f" % r["ratio"] if "ratio" in r else "-"))
    print("median of %d steps after %d warm-up, best of %d rounds; "
          "torch %s, %d threads; %d CPUs, load average %.1f" % (
              args.runs, args.warmup, args.rounds, torch.__version__,
              args.torch_threads, os.cpu_count(), os.getloadavg()[0]))
    for r in results:
        line = "%s loss (first, last step): torch %.4f -> %.4f" % (
            r["model"], *r["torch_loss_first_last"])
        if "mlc_loss_first_last" in r:
            line += ", mlc %.4f -> %.4f" % tuple(r["mlc_loss_first_last"])
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"runs": args.runs, "warmup": args.warmup,
                       "rounds": args.rounds, "torch": torch.__version__,
                       "cpus": os.cpu_count(),
                       "load_average": os.getloadavg()[0],
                       "compile_flags": args.compile_flags,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
