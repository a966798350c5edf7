"""Runs a compiled model through the Python binding and compares every
output with the model's PyTorch reference (models/<name>/expected/*.npy).

usage: check_model.py MODEL.so MODEL_DIR [rtol] [atol]
"""
import os
import sys

import numpy as np

import mlc


def main():
    so, model_dir = sys.argv[1], sys.argv[2]
    rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
    atol = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-5
    m = mlc.load(so)
    feeds = {}
    for name, _, _ in m.inputs:
        feeds[name] = np.load(os.path.join(model_dir, "inputs", name + ".npy"))
    originals = {k: v.copy() for k, v in feeds.items()}
    outputs = m.run(feeds)
    for name, value in feeds.items():
        # Inputs belong to the caller: the model must never write them.
        assert np.array_equal(value, originals[name]), f"input {name} modified"
    for name, _, _ in m.outputs:
        expected = np.load(os.path.join(model_dir, "expected", name + ".npy"))
        got = outputs[name]
        assert got.shape == expected.shape, (name, got.shape, expected.shape)
        assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
        if not np.allclose(got, expected, rtol=rtol, atol=atol):
            err = np.abs(got.astype(np.float64) - expected)
            print(f"MISMATCH {name}: max abs err {err.max()}")
            sys.exit(1)
        print(f"OK {name} {list(got.shape)}")


if __name__ == "__main__":
    main()
