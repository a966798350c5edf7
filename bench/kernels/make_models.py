#!/usr/bin/python3
"""Models for timing mlc's non-contraction kernels (numpy only, no torch).

Writes, under OUT (default build/bench-kernels):
  transformer/model.json + model.safetensors
      the pre-LN block of bench/perf at its size (seq 128, d 256, 4 heads,
      GELU MLP 256 -> 1024 -> 256), as a model.json with seeded weights
  transformer_nomm/model.json
      the same block without its matmuls: their results are inputs, so only
      the kernels this benchmark is about remain (layer_norm, softmax, gelu,
      bias and residual adds, transposes)
  rowwise/model.json
      row-wise kernels only: layer_norm, gelu, softmax, log_softmax,
      reduce_sum/max along the last axis and reduce_mean along the first,
      on [256, 500] (500 is no multiple of 8 or 16)
  pooling/model.json
      maxpool2d 3x3 s1 p1 and s2 p1, avgpool2d 2x2 s2, global_avgpool on
      [1, 64, 56, 56]

The models carry no expected outputs: they are for `mlc-run --bench`.
Usage: /usr/bin/python3 bench/kernels/make_models.py [OUT]
"""

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "models"))
from safetensors_np import write_safetensors  # noqa: E402


def write_model(out, name, inputs, outputs, nodes, weights=None):
    weights = weights or {}
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    model = {"version": 1, "name": name,
             "inputs": [{"name": n, "dtype": "f32", "shape": s}
                        for n, s in inputs],
             "outputs": outputs,
             "weights": [{"name": n, "dtype": "f32", "shape": list(a.shape)}
                         for n, a in sorted(weights.items())],
             "nodes": nodes}
    if weights:
        model["weights_file"] = "model.safetensors"
        write_safetensors(os.path.join(d, "model.safetensors"), weights)
    with open(os.path.join(d, "model.json"), "w") as f:
        json.dump(model, f, indent=1)


def node(op, inputs, out, **attrs):
    n = {"op": op, "inputs": inputs, "outputs": [out]}
    if attrs:
        n["attrs"] = attrs
    return n


def transformer(out, seq=128, d=256, heads=4, hidden=1024):
    rng = np.random.default_rng(0)
    w = {}

    def lin(name, i, o):
        w[name + ".w"] = (rng.standard_normal((i, o)) / np.sqrt(i)).astype(
            np.float32)
        w[name + ".b"] = (0.1 * rng.standard_normal(o)).astype(np.float32)

    for ln in ("ln1", "ln2"):
        w[ln + ".scale"] = (1 + 0.1 * rng.standard_normal(d)).astype(
            np.float32)
        w[ln + ".bias"] = (0.1 * rng.standard_normal(d)).astype(np.float32)
    for p in ("q", "k", "v", "out"):
        lin("attn." + p, d, d)
    lin("fc1", d, hidden)
    lin("fc2", hidden, d)
    hd = d // heads
    w["attn.scale"] = np.array(1 / np.sqrt(hd), dtype=np.float32)
    n = [node("layer_norm", ["x", "ln1.scale", "ln1.bias"], "t1", axis=-1)]
    for p, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]),
                    ("v", [0, 2, 1, 3])):
        n += [node("matmul", ["t1", "attn.%s.w" % p], p + "0"),
              node("add", [p + "0", "attn.%s.b" % p], p + "1"),
              node("reshape", [p + "1"], p + "2", shape=[1, seq, heads, hd]),
              node("transpose", [p + "2"], p, perm=perm)]
    n += [node("matmul", ["q", "k"], "s0"),
          node("mul", ["s0", "attn.scale"], "s1"),
          node("softmax", ["s1"], "p", axis=-1),
          node("matmul", ["p", "v"], "c0"),
          node("transpose", ["c0"], "c1", perm=[0, 2, 1, 3]),
          node("reshape", ["c1"], "c2", shape=[1, seq, d]),
          node("matmul", ["c2", "attn.out.w"], "o0"),
          node("add", ["o0", "attn.out.b"], "o1"),
          node("add", ["x", "o1"], "r1"),
          node("layer_norm", ["r1", "ln2.scale", "ln2.bias"], "t2", axis=-1),
          node("matmul", ["t2", "fc1.w"], "h0"),
          node("add", ["h0", "fc1.b"], "h1"),
          node("gelu", ["h1"], "h2"),
          node("matmul", ["h2", "fc2.w"], "m0"),
          node("add", ["m0", "fc2.b"], "m1"),
          node("add", ["r1", "m1"], "y")]
    write_model(out, "transformer", [("x", [1, seq, d])], ["y"], n, w)


def transformer_nomm(out, seq=128, d=256, heads=4, hidden=1024):
    """transformer() with every matmul result an input instead."""
    rng = np.random.default_rng(0)
    hd = d // heads
    w = {n: (0.1 * rng.standard_normal(k)).astype(np.float32)
         for n, k in [("ln1.bias", d), ("ln2.bias", d), ("attn.q.b", d),
                      ("attn.k.b", d), ("attn.v.b", d), ("attn.out.b", d),
                      ("fc1.b", hidden), ("fc2.b", d)]}
    for ln in ("ln1", "ln2"):
        w[ln + ".scale"] = (1 + 0.1 * rng.standard_normal(d)).astype(
            np.float32)
    w["attn.scale"] = np.array(1 / np.sqrt(hd), dtype=np.float32)
    inputs = [("x", [1, seq, d])]
    inputs += [(p + "0", [1, seq, d]) for p in ("q", "k", "v")]
    inputs += [("s0", [1, heads, seq, seq]), ("c0", [1, heads, seq, hd]),
               ("o0", [1, seq, d]), ("h0", [1, seq, hidden]),
               ("m0", [1, seq, d])]
    n = [node("layer_norm", ["x", "ln1.scale", "ln1.bias"], "t1", axis=-1)]
    for p, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]),
                    ("v", [0, 2, 1, 3])):
        n += [node("add", [p + "0", "attn.%s.b" % p], p + "1"),
              node("reshape", [p + "1"], p + "2", shape=[1, seq, heads, hd]),
              node("transpose", [p + "2"], p, perm=perm)]
    n += [node("mul", ["s0", "attn.scale"], "s1"),
          node("softmax", ["s1"], "p", axis=-1),
          node("transpose", ["c0"], "c1", perm=[0, 2, 1, 3]),
          node("reshape", ["c1"], "c2", shape=[1, seq, d]),
          node("add", ["o0", "attn.out.b"], "o1"),
          node("add", ["x", "o1"], "r1"),
          node("layer_norm", ["r1", "ln2.scale", "ln2.bias"], "t2", axis=-1),
          node("add", ["h0", "fc1.b"], "h1"),
          node("gelu", ["h1"], "h2"),
          node("add", ["m0", "fc2.b"], "m1"),
          node("add", ["r1", "m1"], "y")]
    write_model(out, "transformer_nomm", inputs,
                ["t1", "q", "k", "v", "p", "c2", "t2", "h2", "y"], n, w)


def rowwise(out, rows=256, cols=500):
    rng = np.random.default_rng(1)
    w = {"g": (1 + 0.1 * rng.standard_normal(cols)).astype(np.float32),
         "b": (0.1 * rng.standard_normal(cols)).astype(np.float32)}
    n = [node("layer_norm", ["x", "g", "b"], "ln", axis=-1),
         node("gelu", ["ln"], "ge"),
         node("softmax", ["x"], "sm", axis=-1),
         node("log_softmax", ["x"], "lsm", axis=-1),
         node("reduce_sum", ["x"], "rs", axes=[-1], keepdims=True),
         node("reduce_max", ["x"], "rm", axes=[-1], keepdims=True),
         node("reduce_mean", ["x"], "cm", axes=[0], keepdims=True),
         node("mul", ["x", "x"], "sq"),
         node("add", ["sq", "b"], "el")]
    write_model(out, "rowwise", [("x", [rows, cols])],
                ["ln", "ge", "sm", "lsm", "rs", "rm", "cm", "el"], n, w)


def pooling(out, c=64, hw=56):
    n = [node("maxpool2d", ["x"], "mp1", kernel=[3, 3], strides=[1, 1],
              pads=[1, 1, 1, 1]),
         node("maxpool2d", ["x"], "mp2", kernel=[3, 3], strides=[2, 2],
              pads=[1, 1, 1, 1]),
         node("avgpool2d", ["x"], "ap", kernel=[2, 2], strides=[2, 2]),
         node("global_avgpool", ["x"], "gap")]
    write_model(out, "pooling", [("x", [1, c, hw, hw])],
                ["mp1", "mp2", "ap", "gap"], n)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "build/bench-kernels"
    transformer(out)
    transformer_nomm(out)
    rowwise(out)
    pooling(out)
    print("wrote", out)


if __name__ == "__main__":
    main()
