#!/usr/bin/env python3
"""A QDQ model (the format of PyTorch's quantized export and ONNX
Runtime's quantize_static) and its reference output (qdq-model.test).

x -> Q/DQ -> Conv 3x3 (int8 per-channel weights, int32 bias) -> Relu -> Q/DQ
  -> Conv 3x3 stride 2 (per-tensor weights, uint8 activations) -> Q/DQ
  -> Flatten -> Q/DQ -> Gemm transB (int8 weights, float bias) -> Q/DQ -> y
  -> MatMul with a DQ'd uint8 weight, float output -> z

The reference evaluates the same graph in float64 numpy with ONNX's Q/DQ
definitions (round half to even, saturate). The compiled model computes the
convolutions and matmuls as integer kernels; the two agree to within one
quantization step of the output (y) or one step of the last activation
times the weights' absolute sum (z)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3)

nodes, inits = [], []


def const(name, array):
    inits.append(numpy_helper.from_array(array, name))
    return name


def qdq(x, name, scale, zp, axis=None):
    """Q then DQ of tensor x; returns the DQ output name."""
    s = const(name + "_s", np.asarray(scale, np.float32))
    z = const(name + "_z", np.asarray(zp))
    kw = {} if axis is None else {"axis": axis}
    nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [name + "_q"],
                                  **kw))
    nodes.append(helper.make_node("DequantizeLinear", [name + "_q", s, z],
                                  [name + "_dq"], **kw))
    return name + "_dq"


def dq_weight(name, q, scale, zp, axis=None):
    w = const(name + "_q", q)
    s = const(name + "_s", np.asarray(scale, np.float32))
    z = const(name + "_z", np.asarray(zp))
    kw = {} if axis is None else {"axis": axis}
    nodes.append(helper.make_node("DequantizeLinear", [w, s, z],
                                  [name + "_dq"], **kw))
    return name + "_dq"


# Quantization parameters, as a calibration would have chosen them.
s_x, z_x = 0.02, np.uint8(128)
w1 = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
s_w1 = rng.uniform(0.002, 0.01, 8).astype(np.float32)
b1 = rng.integers(-2000, 2000, 8).astype(np.int32)
s_a1, z_a1 = 0.03, np.uint8(0)
w2 = rng.integers(-127, 128, (8, 8, 3, 3)).astype(np.int8)
s_w2 = np.float32(0.004)
b2 = rng.uniform(-0.1, 0.1, 8).astype(np.float32)
s_a2, z_a2 = 0.05, np.uint8(120)
w3 = rng.integers(-127, 128, (10, 8 * 6 * 6)).astype(np.int8)
s_w3 = np.float32(0.001)
b3 = rng.uniform(-0.2, 0.2, 10).astype(np.float32)
s_y, z_y = 0.04, np.int8(-3)
w4 = rng.integers(0, 256, (10, 5)).astype(np.uint8)
s_w4, z_w4 = np.float32(0.01), np.uint8(131)

x = rng.uniform(-2.5, 2.5, (1, 3, 12, 12)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), x)

h = qdq("x", "xq", s_x, z_x)
w1dq = dq_weight("w1", w1, s_w1, np.zeros(8, np.int8), axis=0)
b1dq = dq_weight("b1", b1, s_x * s_w1, np.zeros(8, np.int32), axis=0)
nodes.append(helper.make_node("Conv", [h, w1dq, b1dq], ["c1"], pads=[1] * 4))
nodes.append(helper.make_node("Relu", ["c1"], ["r1"]))
h = qdq("r1", "a1", s_a1, z_a1)
w2dq = dq_weight("w2", w2, s_w2, np.int8(0))
nodes.append(helper.make_node("Conv", [h, w2dq, const("b2", b2)], ["c2"],
                              pads=[1] * 4, strides=[2, 2]))
h = qdq("c2", "a2", s_a2, z_a2)
nodes.append(helper.make_node("Flatten", [h], ["f"]))
h = qdq("f", "fq", s_a2, z_a2)
w3dq = dq_weight("w3", w3, s_w3, np.int8(0))
nodes.append(helper.make_node("Gemm", [h, w3dq, const("b3", b3)], ["g"],
                              transB=1))
y = qdq("g", "yq", s_y, z_y)
nodes.append(helper.make_node("Identity", [y], ["y"]))
w4dq = dq_weight("w4", w4, s_w4, z_w4)
nodes.append(helper.make_node("MatMul", [y, w4dq], ["z"]))

graph = helper.make_graph(
    nodes, "qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                  x.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, (1, 10)),
     helper.make_tensor_value_info("z", TensorProto.FLOAT, (1, 5))], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "qdq.onnx"))


# float64 reference.
def q(v, s, z, lo, hi):
    return np.clip(np.rint(v / np.float64(s)) + int(z), lo, hi)


def qdq_ref(v, s, z):
    lo, hi = (0, 255) if isinstance(z, np.uint8) else (-128, 127)
    return (q(v, s, z, lo, hi) - int(z)) * np.float64(s)


def conv(v, w, b, stride):
    n, c, hh, ww = v.shape
    o, _, kh, kw = w.shape
    p = np.pad(v, ((0, 0), (0, 0), (1, 1), (1, 1)))
    oh = (hh + 2 - kh) // stride + 1
    ow = (ww + 2 - kw) // stride + 1
    r = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = p[:, :, i:i + stride * (oh - 1) + 1:stride,
                      j:j + stride * (ow - 1) + 1:stride]
            r += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return r + b.reshape(1, -1, 1, 1)


xs = np.float64(np.float32(s_x))
v = qdq_ref(x.astype(np.float64), np.float32(s_x), z_x)
w1f = w1 * s_w1.astype(np.float64).reshape(-1, 1, 1, 1)
b1f = b1 * (np.float32(s_x) * s_w1).astype(np.float64)
v = np.maximum(conv(v, w1f, b1f, 1), 0)
v = qdq_ref(v, np.float32(s_a1), z_a1)
v = conv(v, w2 * np.float64(s_w2), b2.astype(np.float64), 2)
v = qdq_ref(v, np.float32(s_a2), z_a2)
v = v.reshape(1, -1)
v = qdq_ref(v, np.float32(s_a2), z_a2)
v = v @ (w3 * np.float64(s_w3)).T + b3
yref = qdq_ref(v, np.float32(s_y), z_y)
zref = yref @ ((w4.astype(np.float64) - int(z_w4)) * np.float64(s_w4))
np.save(os.path.join(out, "expected_y.npy"), yref.astype(np.float32))
np.save(os.path.join(out, "expected_z.npy"), zref.astype(np.float32))
# Tolerances (qdq-model.test): one output step for y (0.04); for z, y's
# step through the weights, which must stay under the test's 0.35.
step_z = np.float32(s_y) * np.abs((w4.astype(np.float64) - int(z_w4)) *
                                  s_w4).sum(axis=0).max()
assert step_z < 0.35, step_z
