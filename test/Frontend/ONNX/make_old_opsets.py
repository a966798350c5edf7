"""Models of old opsets (1-6) with their attribute conventions, and numpy
references, for old-opsets.test. Usage: make_old_opsets.py OUTDIR

  legacy   (opset 6) Add with broadcast=1 and axis=1 (B of shape [C] on
           an NCHW tensor), Mul with broadcast=1 and B aligned with the
           trailing dims, Sub of equal shapes without broadcast, PRelu with
           a per-channel slope of shape [C], BatchNormalization with
           is_test=1 and consumed_inputs, Relu and Sigmoid with
           consumed_inputs, Gemm with broadcast=1 and a C of shape [N].
  no_bcast (opset 6) Add of different shapes without broadcast (refused).
  bn_train (opset 6) BatchNormalization without is_test (training;
           refused).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
F = TensorProto.FLOAT
T = helper.make_tensor_value_info
node = helper.make_node


def save(name, nodes, inputs, outputs, inits=(), opset=6):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 3  # what exporters of that time wrote
    onnx.save(m, os.path.join(out, name + ".onnx"))


def init(name, v):
    return numpy_helper.from_array(np.asarray(v, np.float32), name)


C = 3
bias = rng.standard_normal(C)
scale45 = rng.standard_normal((4, 5))
slope = rng.random(C) * 0.5
gamma, beta = rng.standard_normal(C), rng.standard_normal(C)
mean, var = rng.standard_normal(C), rng.random(C) + 0.5
w = rng.standard_normal((6, 5 * 4 * C))
c = rng.standard_normal(6)
save("legacy",
     [node("Add", ["x", "bias"], ["a"], broadcast=1, axis=1),
      node("Mul", ["a", "scale45"], ["m"], broadcast=1),
      node("Sub", ["m", "x"], ["s"]),
      node("PRelu", ["s", "slope"], ["p"]),
      node("BatchNormalization", ["p", "gamma", "beta", "mean", "var"],
           ["bn"], is_test=1, epsilon=1e-3, consumed_inputs=[0, 0, 0, 1, 1]),
      node("Relu", ["bn"], ["r"], consumed_inputs=[0]),
      node("Sigmoid", ["r"], ["sg"], consumed_inputs=[0]),
      node("Flatten", ["sg"], ["f"]),
      node("Gemm", ["f", "w", "c"], ["y"], broadcast=1, transB=1,
           alpha=0.5)],
     [T("x", F, [2, C, 4, 5])], [T("y", F, [2, 6])],
     [init("bias", bias), init("scale45", scale45), init("slope", slope),
      init("gamma", gamma), init("beta", beta), init("mean", mean),
      init("var", var), init("w", w), init("c", c)])
x = rng.standard_normal((2, C, 4, 5)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)
ch = (1, C, 1, 1)
v = x.astype(np.float64)
s = (v + bias.reshape(ch)) * scale45 - v
p = np.where(s < 0, s * slope.reshape(ch), s)
bn = (p - mean.reshape(ch)) / np.sqrt(var.reshape(ch) + 1e-3) \
    * gamma.reshape(ch) + beta.reshape(ch)
sg = 1 / (1 + np.exp(-np.maximum(bn, 0)))
y = 0.5 * sg.reshape(2, -1) @ w.T + c
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))

save("no_bcast", [node("Add", ["x", "b"], ["y"])],
     [T("x", F, [2, 3]), T("b", F, [3])], [T("y", F, [2, 3])])
save("bn_train",
     [node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"])],
     [T("x", F, [2, 3])], [T("y", F, [2, 3])],
     [init(n, np.ones(3)) for n in "gbmv"])
