"""Finite-difference check of graph-autodiff's gradient rules (float64).

usage: fd_check.py CASE.mlir --work DIR [--perturb] [--mlc-opt P] [--mlc-compile P]

A case is a module with `func.func @f`. The driver builds its gradient
function as `main` (mlc-opt --graph-autodiff), compiles it (mlc-compile) and
loads it through the Python binding. It draws seeded random inputs and
cotangent seeds, runs the gradient function (which returns f's results and
the VJP), and compares the VJP element by element with central differences
of <seed, f(x)>, computed with the same library.

Directives (comment lines in the case):
  // fd-arg N: SPEC   how to draw argument N (default: normal), SPEC one of
       normal | positive | unit | gt1 | away0 | distinct | int LO HI | bool
  // fd-wrt: I,J,...  the arguments to differentiate (default: every float)
  // fd-tol: RTOL ATOL  (default 1e-6 1e-7)
  // fd-step: H        (default 1e-6)
  // fd-no-f32         skip the f32 build (cases that mix element types)
  // fd-passes: P     extra mlc-opt passes after autodiff (e.g.
                      --graph-expand-training-ops)
Then the case is rebuilt with f32 tensors (same rules, same inputs rounded
to f32): its VJP must match the f64 one to f32 accuracy (--no-f32 skips).
--perturb changes one element of the computed gradient, so the check must
fail: it shows the comparison bites.
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

import mlc

def parse_case(text):
    m = re.search(r"func\.func\s+@f\s*\((.*?)\)\s*->\s*(.*?)\{", text, re.S)
    if not m:
        sys.exit("fd_check: no func.func @f in the case")
    args = re.findall(r"%[\w.]+\s*:\s*tensor<([^>]*)>", m.group(1))
    results = re.findall(r"tensor<([^>]*)>", m.group(2))
    specs = {int(n): s.split() for n, s in
             re.findall(r"//\s*fd-arg\s+(\d+):\s*(.*)", text)}
    wrt = re.search(r"//\s*fd-wrt:\s*([\d, ]+)", text)
    tol = re.search(r"//\s*fd-tol:\s*(\S+)\s+(\S+)", text)
    passes = re.findall(r"//\s*fd-passes:\s*(.*)", text)
    step = re.search(r"//\s*fd-step:\s*(\S+)", text)
    return {
        "args": [elem_of(a) for a in args],
        "results": [elem_of(r) for r in results],
        "specs": specs,
        "wrt": [int(i) for i in wrt.group(1).split(",")] if wrt else None,
        "rtol": float(tol.group(1)) if tol else 1e-6,
        "atol": float(tol.group(2)) if tol else 1e-7,
        "passes": " ".join(passes).split(),
        "step": float(step.group(1)) if step else 1e-6,
        "no_f32": "// fd-no-f32" in text,
    }


def elem_of(tensor_body):
    """'2x3xf64' -> 'f64'; 'f64' -> 'f64'."""
    return tensor_body.split("x")[-1].strip()


def draw(spec, shape, dtype, rng):
    kind = spec[0] if spec else "normal"
    n = int(np.prod(shape)) if shape else 1
    if kind == "int":
        return rng.integers(int(spec[1]), int(spec[2]), size=shape).astype(
            dtype)
    if kind == "bool":
        return rng.random(shape) < 0.5
    if kind == "normal":
        x = rng.normal(size=shape)
    elif kind == "positive":
        x = rng.uniform(0.5, 2.0, size=shape)
    elif kind == "unit":
        x = rng.uniform(-0.8, 0.8, size=shape)
    elif kind == "gt1":
        x = rng.uniform(1.2, 3.0, size=shape)
    elif kind == "away0":
        x = rng.uniform(0.2, 1.5, size=shape) * rng.choice([-1.0, 1.0],
                                                          size=shape)
    elif kind == "distinct":
        # A permutation of evenly spaced values: no ties, gaps >> the step.
        x = rng.permutation(np.linspace(-2.0, 2.0, n)).reshape(shape)
    else:
        sys.exit(f"fd_check: unknown fd-arg spec '{' '.join(spec)}'")
    return np.asarray(x, dtype=dtype)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        print("FAIL: command failed: " + " ".join(cmd))
        print(p.stdout)
        sys.exit(1)


def check_f32(opts, case, build, xs, seeds, grads, wrt, name):
    """The same rules on f32 tensors: the f32 gradient function, fed the
    same inputs rounded to f32, must agree with the f64 VJP to f32
    accuracy. Returns the number of mismatching gradients."""
    with open(opts.case) as f:
        text = f.read()
    text = re.sub(r"tensor<([^>]*)f64>", r"tensor<\1f32>", text)
    source = os.path.join(opts.work, "case_f32.mlir")
    with open(source, "w") as f:
        f.write(text)
    model = build(source, "grad_f32")
    nres = len(case["results"])
    as32 = [a.astype(np.float32) if a.dtype == np.float64 else a for a in xs]
    seeds32 = [s.astype(np.float32) for s in seeds]
    outs = model(*as32, *seeds32)
    outs = outs if isinstance(outs, tuple) else (outs,)
    failures = 0
    for k, i in enumerate(wrt):
        got = np.array(outs[nres + k], dtype=np.float64)
        ref = grads[k]
        scale = 1.0 + (np.max(np.abs(ref)) if ref.size else 0.0)
        err = np.abs(got - ref)
        bound = 1e-4 * scale + 1e-3 * np.abs(ref)
        if err.size and np.max(err / bound) > 1.0:
            j = int(np.argmax(err / bound))
            failures += 1
            print(f"MISMATCH {name} (f32): d/darg{i} element {j}: "
                  f"{got.reshape(-1)[j]:.8g}, f64 VJP {ref.reshape(-1)[j]:.8g}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--work", required=True)
    ap.add_argument("--perturb", action="store_true")
    ap.add_argument("--no-f32", action="store_true",
                    help="skip the f32 build of the same rules")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mlc-opt", default="mlc-opt")
    ap.add_argument("--mlc-compile", default="mlc-compile")
    opts = ap.parse_args()
    with open(opts.case) as f:
        case = parse_case(f.read())
    name = os.path.splitext(os.path.basename(opts.case))[0]
    os.makedirs(opts.work, exist_ok=True)
    wrt = case["wrt"]
    if wrt is None:
        wrt = [i for i, e in enumerate(case["args"]) if e.startswith("f")]
    autodiff = "--graph-autodiff=func=f grad-name=main wrt=" + ",".join(
        map(str, wrt))

    def build(source, tag):
        grad_mlir = os.path.join(opts.work, tag + ".mlir")
        grad_so = os.path.join(opts.work, tag + ".so")
        run([opts.mlc_opt, source, autodiff, *case["passes"],
             "--symbol-privatize=exclude=main", "--symbol-dce", "-o",
             grad_mlir])
        run([opts.mlc_compile, grad_mlir, "-o", grad_so])
        return mlc.load(grad_so)

    model = build(opts.case, "grad")
    nargs, nres = len(case["args"]), len(case["results"])
    rng = np.random.default_rng(opts.seed)
    xs = []
    for i, (_, dtype, shape) in enumerate(model.inputs[:nargs]):
        xs.append(draw(case["specs"].get(i), tuple(shape), dtype, rng))
    seeds = [rng.normal(size=tuple(shape)).astype(dtype)
             for _, dtype, shape in model.inputs[nargs:]]
    outs = model(*xs, *seeds)
    outs = outs if isinstance(outs, tuple) else (outs,)
    grads = [np.array(g, dtype=np.float64) for g in outs[nres:]]
    if len(grads) != len(wrt):
        print(f"FAIL {name}: {len(grads)} gradients for wrt {wrt}")
        return 1
    if opts.perturb:
        grads[0].reshape(-1)[0] += 1e-3

    def loss(args):
        r = model(*args, *seeds)
        r = r if isinstance(r, tuple) else (r,)
        return sum(float(np.sum(s * o)) for s, o in zip(seeds, r[:nres]))

    step = case["step"]
    worst = (0.0, None)
    failures = 0
    for k, i in enumerate(wrt):
        x = xs[i]
        fd = np.zeros(x.shape)
        for j in range(x.size):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[i].reshape(-1)[j] += step
            minus[i].reshape(-1)[j] -= step
            # The step actually taken, after rounding to the input type.
            taken = float(plus[i].reshape(-1)[j]) - float(
                minus[i].reshape(-1)[j])
            fd.reshape(-1)[j] = (loss(plus) - loss(minus)) / taken
        got = grads[k]
        err = np.abs(got - fd)
        bound = case["atol"] + case["rtol"] * np.maximum(np.abs(fd),
                                                         np.abs(got))
        ratio = err / bound
        j = int(np.argmax(ratio)) if ratio.size else 0
        if ratio.size and ratio.reshape(-1)[j] > worst[0]:
            worst = (float(ratio.reshape(-1)[j]), i)
        if ratio.size and ratio.reshape(-1)[j] > 1.0:
            failures += 1
            idx = np.unravel_index(j, x.shape) if x.shape else ()
            print(f"MISMATCH {name}: d/darg{i}{list(idx)}: vjp "
                  f"{got.reshape(-1)[j]:.12g}, finite differences "
                  f"{fd.reshape(-1)[j]:.12g} (abs err {err.reshape(-1)[j]:.3g}"
                  f", input {x.reshape(-1)[j]:.6g})")
    if not (opts.no_f32 or case["no_f32"]):
        failures += check_f32(opts, case, build, xs, seeds, grads, wrt, name)
    if failures:
        print(f"FAIL {name}: {failures} mismatches in {len(wrt)} gradients")
        return 1
    print(f"PASS {name}: {len(wrt)} gradients, worst error/tolerance "
          f"{worst[0]:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
