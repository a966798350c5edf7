#!/usr/bin/env python3
"""An ONNX model of unsigned integer arithmetic at its edges, and numpy
references computed with explicit unsigned rules (unsigned-integers.test).

Inputs: a, b uint64 (values from 2^63 on, where a signed view would flip
comparisons and divisions), p, q uint8 (wrapping add/sub, MaxPool),
h uint16 shift amounts (some of the bit width or more), f float32.
Divisors include 0: mlc defines x / 0 = x mod 0 = 0 (ONNX leaves them
undefined)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

U64 = np.uint64
a = np.array([2**63 + 5, 7, 2**64 - 1, 100, 9, 2**63, 1, 0], U64)
b = np.array([3, 2**63 + 1, 0, 7, 9, 2, 2**64 - 1, 5], U64)
p = np.array([[200, 3, 255, 0], [17, 128, 1, 99]], np.uint8)
q = np.array([[100, 5, 1, 0], [200, 129, 2, 99]], np.uint8)
h = np.array([0, 1, 15, 16, 17, 40000, 3, 8], np.uint16)
x16 = np.array([0x8001, 0xFFFF, 1, 1, 0x7FFF, 5, 0x1234, 0xF000], np.uint16)
f = np.array([0.0, 3.7, 3e9, 4294967040.0, 1.5, 65535.9, 2**31, 42.0],
             np.float32)

inputs = {"a": a, "b": b, "p": p, "q": q, "h": h, "x16": x16, "f": f}
for name, v in inputs.items():
    np.save(os.path.join(out, name + ".npy"), v)


def safe(d):
    return np.where(d == 0, np.ones_like(d), d)


def shift(x, s, left):
    w = x.dtype.itemsize * 8
    amount = np.minimum(s, w - 1).astype(x.dtype)
    shifted = (x << amount) if left else (x >> amount)
    return np.where(s >= w, np.zeros_like(x), shifted).astype(x.dtype)


pooled = np.array([[max(p[0, 0], p[0, 1], p[1, 0], p[1, 1]),
                    max(p[0, 2], p[0, 3], p[1, 2], p[1, 3])]], np.uint8)
expected = {
    "div": np.where(b == 0, U64(0), a // safe(b)),
    "mod": np.where(b == 0, U64(0), a % safe(b)),
    "max": np.maximum(a, b),
    "min": np.minimum(a, b),
    "less": a < b,
    "add8": (p.astype(np.int64) + q).astype(np.uint8),  # wraps mod 256
    "sub8": (p.astype(np.int64) - q).astype(np.uint8),
    "shl": shift(x16, h, True),
    "shr": shift(x16, h, False),
    "to_u32": np.trunc(f).astype(np.uint32),
    "to_f64": a.astype(np.float64),
    "pool": pooled.reshape(1, 1, 1, 2),
}
for name, v in expected.items():
    np.save(os.path.join(out, "expected_" + name + ".npy"), v)

T = helper.make_tensor_value_info
nodes = [
    helper.make_node("Div", ["a", "b"], ["div"]),
    helper.make_node("Mod", ["a", "b"], ["mod"]),
    helper.make_node("Max", ["a", "b"], ["max"]),
    helper.make_node("Min", ["a", "b"], ["min"]),
    helper.make_node("Less", ["a", "b"], ["less"]),
    helper.make_node("Add", ["p", "q"], ["add8"]),
    helper.make_node("Sub", ["p", "q"], ["sub8"]),
    helper.make_node("BitShift", ["x16", "h"], ["shl"], direction="LEFT"),
    helper.make_node("BitShift", ["x16", "h"], ["shr"], direction="RIGHT"),
    helper.make_node("Cast", ["f"], ["to_u32"], to=TensorProto.UINT32),
    helper.make_node("Cast", ["a"], ["to_f64"], to=TensorProto.DOUBLE),
    helper.make_node("Reshape", ["p", "pool_shape"], ["p4"]),
    helper.make_node("MaxPool", ["p4"], ["pool"], kernel_shape=[2, 2],
                     strides=[2, 2]),
]
shape4 = helper.make_tensor("pool_shape", TensorProto.INT64, [4],
                            [1, 1, 2, 4])
graph = helper.make_graph(
    nodes, "unsigned",
    [T("a", TensorProto.UINT64, [8]), T("b", TensorProto.UINT64, [8]),
     T("p", TensorProto.UINT8, [2, 4]), T("q", TensorProto.UINT8, [2, 4]),
     T("h", TensorProto.UINT16, [8]), T("x16", TensorProto.UINT16, [8]),
     T("f", TensorProto.FLOAT, [8])],
    [T("div", TensorProto.UINT64, [8]), T("mod", TensorProto.UINT64, [8]),
     T("max", TensorProto.UINT64, [8]), T("min", TensorProto.UINT64, [8]),
     T("less", TensorProto.BOOL, [8]), T("add8", TensorProto.UINT8, [2, 4]),
     T("sub8", TensorProto.UINT8, [2, 4]), T("shl", TensorProto.UINT16, [8]),
     T("shr", TensorProto.UINT16, [8]), T("to_u32", TensorProto.UINT32, [8]),
     T("to_f64", TensorProto.DOUBLE, [8]),
     T("pool", TensorProto.UINT8, [1, 1, 1, 2])],
    initializer=[shape4])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "unsigned.onnx"))
