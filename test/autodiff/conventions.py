"""Exact gradients at ties and kinks (docs/autodiff.md): maxpool2d sends a
window's cotangent to its first maximum (row-major), max/min send ties to
the lhs, reduce_max splits ties evenly, relu'(0) = abs'(0) = 0.

usage: conventions.py --work DIR  (mlc-opt and mlc-compile on PATH)
"""
import argparse
import os
import subprocess
import sys

import numpy as np

import mlc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    opts = ap.parse_args()
    os.makedirs(opts.work, exist_ok=True)
    src = os.path.join(os.path.dirname(__file__), "Inputs", "conventions.mlir")
    grad_mlir = os.path.join(opts.work, "grad.mlir")
    grad_so = os.path.join(opts.work, "grad.so")
    subprocess.run(["mlc-opt", src, "--graph-autodiff=func=f grad-name=main",
                    "--symbol-privatize=exclude=main", "--symbol-dce", "-o",
                    grad_mlir], check=True)
    subprocess.run(["mlc-compile", grad_mlir, "-o", grad_so], check=True)
    model = mlc.load(grad_so)

    f = np.float64
    mp = np.array([[[[1, 3, 3, 0, 5, 5],
                     [3, 2, 0, 0, 5, 5]]]], f)
    a = np.array([1, 2, 3, 4], f)
    b = np.array([1, 0, 3, 5], f)
    y = np.array([1, 0, 3, 5], f)
    r = np.array([[1, 4, 4], [2, 2, 2]], f)
    x = np.array([-1, 0, 0, 2], f)
    seeds = [np.array([[[[1, 2, 3]]]], f), np.ones(4), np.ones(4),
             np.array([6, 3], f), np.ones(4), np.ones(4)]
    outs = model(mp, a, b, r, x, y, *seeds)
    got = dict(zip(["mp", "a", "b", "r", "x", "y"], outs[6:]))
    expected = {
        # First maximum of each window: (0,1), (0,2), (0,4).
        "mp": np.array([[[[0, 1, 2, 0, 3, 0],
                          [0, 0, 0, 0, 0, 0]]]], f),
        # max(a, b): ties at 0 and 2 go to a; min(a, y): a <= y at 0, 2, 3.
        "a": np.array([1, 1, 1, 0], f) + np.array([1, 0, 1, 1], f),
        "b": np.array([0, 0, 0, 1], f),
        "y": np.array([0, 1, 0, 0], f),
        # reduce_max: 6 split over two 4s, 3 over three 2s.
        "r": np.array([[0, 3, 3], [1, 1, 1]], f),
        # relu'(0) = 0 and abs'(0) = 0.
        "x": np.array([0, 0, 0, 1], f) + np.array([-1, 0, 0, 1], f),
    }
    ok = True
    for name, want in expected.items():
        if not np.array_equal(got[name], want):
            print(f"MISMATCH d{name}: got {got[name].tolist()}, "
                  f"expected {want.tolist()}")
            ok = False
        else:
            print(f"OK d{name}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
