#!/usr/bin/python3
"""Writes a model.json with model.json's convolutions, poolings and
transposed convolutions over 1, 2 and 3 spatial dims (window-ops.test),
its input and the expected outputs.

usage: make_window_ops.py OUT_DIR

Writes OUT_DIR/model.json (weights inline), OUT_DIR/x1.npy, x2.npy, x3.npy
(the 1-D, 2-D and 3-D inputs), OUT_DIR/expected/<output>.npy and
OUT_DIR/outputs.txt (the mlc-run --expect arguments). The references are
PyTorch's own conv1d..3d, max_pool/avg_pool and conv_transpose1d..3d in
float64; asymmetric padding is applied with F.pad first.
"""

import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(22)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def T(a):
    return torch.from_numpy(a.astype(np.float64))


def pad_spatial(x, pads, value=0.0):
    """pads: all begins, then all ends (model.json's order)."""
    d = len(pads) // 2
    flat = []
    for i in reversed(range(d)):
        flat += [pads[i], pads[i + d]]
    return F.pad(x, tuple(flat), value=value)


weights, nodes, outputs = [], [], []


def weight(name, a):
    weights.append({"name": name, "dtype": "f32", "shape": list(a.shape),
                    "data": [float(v) for v in a.reshape(-1)]})
    return name


def node(op, inputs, out, expected, **attrs):
    nodes.append({"op": op, "name": out, "inputs": inputs, "outputs": [out],
                  "attrs": attrs})
    outputs.append((out, expected.numpy().astype(np.float32)))


def conv(d, x, xname, tag, co, groups, k, strides, pads, dilations):
    c = x.shape[1]
    w = randn(co, c // groups, *k)
    b = randn(co)
    conv_fn = (F.conv1d, F.conv2d, F.conv3d)[d - 1]
    ref = conv_fn(pad_spatial(T(x), pads), T(w), T(b), stride=strides,
                  dilation=dilations, groups=groups)
    node("conv%dd" % d, [xname, weight(tag + ".w", w), weight(tag + ".b", b)],
         tag, ref, strides=strides, pads=pads, dilations=dilations,
         groups=groups)


def pools(d, x, xname, tag, k, strides, pads, dilations):
    xp = T(x)
    maxp = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[d - 1]
    ref = maxp(pad_spatial(xp, pads, -math.inf), k, stride=strides,
               dilation=dilations)
    node("maxpool%dd" % d, [xname], tag + "_max", ref, kernel=k,
         strides=strides, pads=pads, dilations=dilations)
    avgp = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[d - 1]
    total = avgp(pad_spatial(xp, pads), k, stride=strides) * math.prod(k)
    count = avgp(pad_spatial(torch.ones_like(xp), pads), k,
                 stride=strides) * math.prod(k)
    node("avgpool%dd" % d, [xname], tag + "_avg_incl", total / math.prod(k),
         kernel=k, strides=strides, pads=pads, count_include_pad=True)
    node("avgpool%dd" % d, [xname], tag + "_avg_excl", total / count,
         kernel=k, strides=strides, pads=pads, count_include_pad=False)


def conv_transpose(d, x, xname, tag, co, groups, k, strides, pad, out_pad,
                   dilations):
    """Symmetric padding `pad` per dim, as PyTorch's padding takes it."""
    c = x.shape[1]
    w = randn(c, co // groups, *k)
    b = randn(co)
    fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[d - 1]
    ref = fn(T(x), T(w), T(b), stride=strides, padding=pad,
             output_padding=out_pad, groups=groups, dilation=dilations)
    node("conv_transpose%dd" % d,
         [xname, weight(tag + ".w", w), weight(tag + ".b", b)], tag, ref,
         strides=strides, pads=pad + pad, output_padding=out_pad,
         dilations=dilations, groups=groups)


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "expected"), exist_ok=True)
    x1 = randn(2, 4, 17)
    x2 = randn(1, 4, 9, 8)
    x3 = randn(2, 4, 5, 6, 7)

    conv(1, x1, "x1", "c1", 6, 2, [3], [2], [1, 2], [2])
    conv(2, x2, "x2", "c2", 5, 1, [3, 2], [2, 1], [1, 0, 2, 1], [1, 2])
    conv(3, x3, "x3", "c3", 6, 2, [3, 3, 2], [2, 1, 2], [1, 0, 1, 1, 1, 0],
         [1, 2, 1])
    conv(3, x3, "x3", "c3dw", 4, 4, [3, 1, 3], [1, 2, 1], [1, 0, 1, 1, 0, 1],
         [1, 1, 1])
    pools(1, x1, "x1", "p1", [3], [2], [1, 1], [2])
    pools(2, x2, "x2", "p2", [3, 2], [2, 1], [1, 0, 1, 1], [1, 1])
    pools(3, x3, "x3", "p3", [2, 3, 2], [2, 2, 1], [1, 1, 0, 0, 1, 1],
          [1, 1, 1])
    conv_transpose(1, x1, "x1", "t1", 3, 1, [4], [3], [1], [2], [1])
    conv_transpose(2, x2, "x2", "t2", 6, 2, [3, 3], [2, 2], [1, 1], [1, 0],
                   [1, 2])
    conv_transpose(3, x3, "x3", "t3", 5, 1, [3, 2, 3], [2, 1, 2], [1, 0, 1],
                   [1, 0, 1], [1, 1, 2])

    model = {
        "version": 1, "name": "window_ops",
        "inputs": [{"name": n, "dtype": "f32", "shape": list(a.shape)}
                   for n, a in (("x1", x1), ("x2", x2), ("x3", x3))],
        "outputs": [name for name, _ in outputs],
        "weights": weights, "nodes": nodes,
    }
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump(model, f)
    for n, a in (("x1", x1), ("x2", x2), ("x3", x3)):
        np.save(os.path.join(out, n + ".npy"), a)
    args = []
    for name, a in outputs:
        path = os.path.join(out, "expected", name + ".npy")
        np.save(path, a)
        args.append("--expect %s=%s" % (name, path))
    with open(os.path.join(out, "outputs.txt"), "w") as f:
        f.write(" ".join(args) + "\n")
    print("%d outputs" % len(outputs))


if __name__ == "__main__":
    main()
