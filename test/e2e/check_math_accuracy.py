"""Accuracy of the kernels' inline f32 math (mlc-approximate-math) in ulp
against float64 references, over a dense grid of the whole useful range:
the errors a user sees, not only the polynomial's on paper.

usage: check_math_accuracy.py write DIR      -> DIR/model.json, DIR/x.npy
       check_math_accuracy.py check DIR OUT  -> compares OUT/<fn>.npy

Prints one line per function (max and mean ulp, where the max is) and
exits 1 if a bound below is exceeded or a special value is wrong."""
import json
import math
import os
import sys

import numpy as np

# name: (float64 reference, max ulp, mean ulp). The bounds are the measured
# errors rounded up: a regression, not noise, breaks them.
FUNCTIONS = {
    "erf": (math.erf, 6.0, 0.4),
    "tanh": (math.tanh, 5.0, 0.9),
    "exp": (math.exp, 4.0, 0.3),
}


def grid():
    pos = np.concatenate([
        np.linspace(0, 10, 400001),
        np.logspace(-38, 1, 20001),
        [1.4e-45, 1e-40, 80.0, 88.7, 1e30, 3.4e38]])
    return np.float32(np.concatenate([pos, -pos]))


def write(d):
    os.makedirs(d, exist_ok=True)
    x = grid()
    np.save(os.path.join(d, "x.npy"), x)
    model = {
        "version": 1, "name": "math_accuracy",
        "inputs": [{"name": "x", "dtype": "f32", "shape": [int(x.size)]}],
        "outputs": list(FUNCTIONS), "weights": [],
        "nodes": [{"op": f, "inputs": ["x"], "outputs": [f]}
                  for f in FUNCTIONS]}
    with open(os.path.join(d, "model.json"), "w") as f:
        json.dump(model, f)


def reference(fn, x):
    out = np.empty(x.size)
    for i, v in enumerate(x.astype(np.float64)):
        try:
            out[i] = fn(v)
        except OverflowError:
            out[i] = math.inf
    return out


def check(d, out):
    x = np.load(os.path.join(d, "x.npy"))
    ok = True
    for name, (fn, max_ulp, mean_ulp) in FUNCTIONS.items():
        got = np.load(os.path.join(out, name + ".npy")).astype(np.float64)
        ref = reference(fn, x)
        ref32 = ref.astype(np.float32)
        finite = np.isfinite(ref32)
        # Where the reference overflows f32, the result must be inf too.
        if not np.array_equal(got[~finite], ref32[~finite].astype(np.float64)):
            print("%s: wrong where the result overflows" % name)
            ok = False
        # Subnormal results may flush to zero (exp's polynomial does): they
        # need only be within FLT_MIN and stay out of the ulp figures.
        tiny = np.finfo(np.float32).tiny
        sub = finite & (np.abs(ref) < tiny)
        if np.any(np.abs(got[sub] - ref[sub]) > tiny):
            print("%s: wrong on subnormal results" % name)
            ok = False
        normal = finite & ~sub
        ulp = np.spacing(np.abs(ref32[normal])).astype(np.float64)
        err = np.abs(got[normal] - ref[normal]) / ulp
        worst = int(np.argmax(err))
        print("%s: max %.2f ulp at x=%.9g, mean %.3f ulp" % (
            name, err[worst], x[normal][worst], err.mean()))
        if not (err.max() <= max_ulp and err.mean() <= mean_ulp):
            print("%s: above the bound (%.1f max, %.2f mean)" % (
                name, max_ulp, mean_ulp))
            ok = False
    print("math accuracy: %s" % ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
