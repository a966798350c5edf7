"""Writes the block-tiled matmul test model (cuda-block-matmul.test) to a
directory: model.json, its inputs and float64 numpy references.

The shapes are chosen to hit every edge of the CUDA shared-memory tiled
contraction: M, N and K not multiples of the tile, both operand layouts
(reduction index contiguous or not), a bias and relu epilogue, a batch
large enough for the 128 x 128 tiles, and rows over two loops. Inputs are made here from a fixed
seed rather than stored, since they are large.
"""

import json
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(out, "expected"), exist_ok=True)
    rng = np.random.default_rng(7)
    inputs = {
        # 12 tiles of 64 x 64 would idle most of a GPU: 32 x 32 tiles,
        # 7 x 5 blocks, the last ones partial; K = 300 leaves a partial
        # step of 4.
        "a": rng.standard_normal((200, 300)),
        "w": rng.standard_normal((300, 150)),
        "bias": rng.standard_normal((150,)),
        # Both operands transposed: M = 90, N = 50, K = 37.
        "p": rng.standard_normal((37, 90)),
        "q": rng.standard_normal((50, 37)),
        # 128 batches: 128 x 128 tiles, each mostly past the 20 x 36 edge.
        "x": rng.standard_normal((128, 20, 24)),
        "y": rng.standard_normal((128, 24, 36)),
        # Rows over two loops, collapsed into 600: 64 x 64 tiles (10 x 18
        # blocks, both edges partial), K = 20.
        "u": rng.standard_normal((4, 150, 20)),
        "v": rng.standard_normal((20, 1100)),
    }
    inputs = {k: v.astype(np.float32) for k, v in inputs.items()}
    f64 = {k: v.astype(np.float64) for k, v in inputs.items()}
    expected = {
        "fc": np.maximum(f64["a"] @ f64["w"] + f64["bias"], 0.0),
        "tt": f64["p"].T @ f64["q"].T,
        "bmm": f64["x"] @ f64["y"],
        "rows": f64["u"] @ f64["v"],
    }
    model = {
        "version": 1,
        "name": "block_matmul",
        "inputs": [{"name": k, "dtype": "f32", "shape": list(v.shape)}
                   for k, v in inputs.items()],
        "outputs": list(expected),
        "weights": [],
        "nodes": [
            {"op": "matmul", "inputs": ["a", "w"], "outputs": ["aw"]},
            {"op": "add", "inputs": ["aw", "bias"], "outputs": ["awb"]},
            {"op": "relu", "inputs": ["awb"], "outputs": ["fc"]},
            {"op": "transpose", "inputs": ["p"], "outputs": ["pt"]},
            {"op": "transpose", "inputs": ["q"], "outputs": ["qt"]},
            {"op": "matmul", "inputs": ["pt", "qt"], "outputs": ["tt"]},
            {"op": "matmul", "inputs": ["x", "y"], "outputs": ["bmm"]},
            {"op": "matmul", "inputs": ["u", "v"], "outputs": ["rows"]},
        ],
    }
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(model, f, indent=1)
    for k, v in inputs.items():
        np.save(os.path.join(out, "inputs", k + ".npy"), v)
    for k, v in expected.items():
        np.save(os.path.join(out, "expected", k + ".npy"), v.astype(np.float32))


if __name__ == "__main__":
    main()
