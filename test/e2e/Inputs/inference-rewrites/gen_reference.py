#!/usr/bin/python3
"""Writes the model, inputs and float64 reference outputs of
test/e2e/inference-rewrites.test into this folder.

The model exercises every inference rewrite of -O1 and up:
  feat   = batch_norm(conv2d(x, w, b))         graph-fold-batch-norm (conv)
  fc     = matmul(p, fc_w) * fc_scale          graph-fold-scale-into-matmul
  fc_bn  = batch_norm(matmul(p, bn_w))         graph-fold-batch-norm (matmul)
  pre    = matmul(u * 0.5, pre_w)              graph-fold-scale-into-matmul
  window = slice(add(u, u_bias))[1:3, 2::2]    graph-reorder-slices
with p = reshape(global_avgpool(relu(feat)), [2, 4]). References come from
torch in float64, from the float32 inputs and weights, following
docs/model-format.md (batch_norm: (x - mean) / sqrt(var + eps) * scale +
bias). Deterministic: re-running leaves git clean.

Run with Debian's python (it has torch and numpy):
  /usr/bin/python3 test/e2e/Inputs/inference-rewrites/gen_reference.py
"""

import json
import os

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(1234)


def randn(*shape, scale=1.0, shift=0.0):
    return (rng.standard_normal(shape) * scale + shift).astype(np.float32)


def uniform(lo, hi, *shape):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def t64(a):
    return torch.from_numpy(np.asarray(a, dtype=np.float64).copy())


def f32(t):
    return np.asarray(t, dtype=np.float64).astype(np.float32)


inputs = {"x": randn(2, 3, 6, 6), "u": randn(3, 8)}
weights = {
    "conv_w": randn(4, 3, 3, 3, scale=0.5),
    "conv_b": randn(4, scale=0.1),
    "bn_scale": uniform(0.5, 1.5, 4),
    "bn_bias": randn(4, scale=0.2),
    "bn_mean": randn(4, scale=0.3),
    "bn_var": uniform(0.2, 2.0, 4),
    "fc_w": randn(4, 5, scale=0.5),
    "fc_scale": uniform(0.5, 2.0, 5),
    "bn_w": randn(4, 3, scale=0.5),
    "bn2_scale": uniform(0.5, 1.5, 3),
    "bn2_bias": randn(3, scale=0.2),
    "bn2_mean": randn(3, scale=0.3),
    "bn2_var": uniform(0.2, 2.0, 3),
    "half": np.float32([0.5]),
    "pre_w": randn(8, 2, scale=0.5),
    "u_bias": randn(8),
}
EPS, EPS2 = 1e-3, 1e-5

nodes = [
    {"op": "conv2d", "name": "conv", "inputs": ["x", "conv_w", "conv_b"],
     "outputs": ["c"], "attrs": {"pads": [1, 1, 1, 1]}},
    {"op": "batch_norm", "name": "bn", "inputs": ["c", "bn_scale", "bn_bias",
     "bn_mean", "bn_var"], "outputs": ["feat"], "attrs": {"epsilon": EPS}},
    {"op": "relu", "inputs": ["feat"], "outputs": ["r"]},
    {"op": "global_avgpool", "inputs": ["r"], "outputs": ["g"]},
    {"op": "reshape", "inputs": ["g"], "outputs": ["p"],
     "attrs": {"shape": [2, 4]}},
    {"op": "matmul", "name": "fc", "inputs": ["p", "fc_w"],
     "outputs": ["h"]},
    {"op": "mul", "inputs": ["h", "fc_scale"], "outputs": ["fc"]},
    {"op": "matmul", "inputs": ["p", "bn_w"], "outputs": ["z"]},
    {"op": "batch_norm", "name": "bn2", "inputs": ["z", "bn2_scale",
     "bn2_bias", "bn2_mean", "bn2_var"], "outputs": ["fc_bn"],
     "attrs": {"epsilon": EPS2}},
    {"op": "mul", "inputs": ["u", "half"], "outputs": ["uh"]},
    {"op": "matmul", "inputs": ["uh", "pre_w"], "outputs": ["pre"]},
    {"op": "add", "inputs": ["u", "u_bias"], "outputs": ["ub"]},
    {"op": "slice", "inputs": ["ub"], "outputs": ["window"],
     "attrs": {"starts": [1, 2], "ends": [3, 8], "steps": [1, 2]}},
]
outputs = ["feat", "fc", "fc_bn", "pre", "window"]

# References in float64.
W = {k: t64(v) for k, v in weights.items()}
x, u = t64(inputs["x"]), t64(inputs["u"])


def batch_norm(v, s, b, m, var, eps):
    shape = [1, -1] + [1] * (v.dim() - 2)
    return ((v - m.reshape(shape)) / torch.sqrt(var.reshape(shape) + eps)
            * s.reshape(shape) + b.reshape(shape))


feat = batch_norm(F.conv2d(x, W["conv_w"], W["conv_b"], padding=1),
                  W["bn_scale"], W["bn_bias"], W["bn_mean"], W["bn_var"], EPS)
p = torch.relu(feat).mean(dim=(2, 3))
expected = {
    "feat": feat,
    "fc": (p @ W["fc_w"]) * W["fc_scale"],
    "fc_bn": batch_norm(p @ W["bn_w"], W["bn2_scale"], W["bn2_bias"],
                        W["bn2_mean"], W["bn2_var"], EPS2),
    "pre": (u * W["half"]) @ W["pre_w"],
    "window": (u + W["u_bias"])[1:3, 2::2],
}


def dumps(v):
    return json.dumps(v, separators=(", ", ": "))


lines = ["{", '  "version": 1,', '  "name": "inference_rewrites",',
         '  "inputs": [']
lines.append(",\n".join("    " + dumps({"name": n, "dtype": "f32",
                                          "shape": list(a.shape)})
                        for n, a in inputs.items()))
lines += ["  ],", '  "outputs": %s,' % dumps(outputs), '  "weights": [']
# float32 -> double is exact and repr() round-trips it.
lines.append(",\n".join(
    "    " + dumps({"name": n, "dtype": "f32", "shape": list(a.shape),
                    "data": [float(v) for v in a.reshape(-1)]})
    for n, a in weights.items()))
lines += ["  ],", '  "nodes": [']
lines.append(",\n".join("    " + dumps(n) for n in nodes))
lines += ["  ]", "}"]
with open(os.path.join(HERE, "model.json"), "w") as f:
    f.write("\n".join(lines) + "\n")

for sub in ("inputs", "expected"):
    os.makedirs(os.path.join(HERE, sub), exist_ok=True)
for n, a in inputs.items():
    np.save(os.path.join(HERE, "inputs", n + ".npy"), a)
for n, t in expected.items():
    np.save(os.path.join(HERE, "expected", n + ".npy"), f32(t))
