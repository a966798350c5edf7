#!/usr/bin/env python3
"""An ONNX model with zero-size tensors (zero-size-tensors.test): a zero-size
input through Relu to an output, an empty Slice concatenated to a full
tensor, a sum over an empty axis (zeros), Split into a full and an empty
part, Shape of an empty tensor; numpy references."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
x = np.zeros((2, 0, 4), np.float32)
a = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "a.npy"), a)
expected = {
    "relu": np.maximum(x, 0),
    "joined": np.concatenate([a[1:1], a], 0) * 2,
    "total": x.sum(axis=1),
    "head": a[:3],
    "rest": a[3:],
    "shape": np.array(x.shape, np.int64),
}
for name, v in expected.items():
    np.save(os.path.join(out, "expected_" + name + ".npy"), v)


def const(name, values):
    return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)


nodes = [
    helper.make_node("Relu", ["x"], ["relu"]),
    helper.make_node("Slice", ["a", "one", "one", "zero"], ["empty"]),
    helper.make_node("Concat", ["empty", "a"], ["cat"], axis=0),
    helper.make_node("Add", ["cat", "cat"], ["joined"]),
    helper.make_node("ReduceSum", ["x", "one"], ["total"], keepdims=0),
    helper.make_node("Split", ["a", "parts"], ["head", "rest"], axis=0),
    helper.make_node("Shape", ["x"], ["shape"]),
]
T = helper.make_tensor_value_info
graph = helper.make_graph(
    nodes, "zero_size",
    [T("x", TensorProto.FLOAT, [2, 0, 4]), T("a", TensorProto.FLOAT, [3, 4])],
    [T("relu", TensorProto.FLOAT, [2, 0, 4]),
     T("joined", TensorProto.FLOAT, [3, 4]),
     T("total", TensorProto.FLOAT, [2, 4]),
     T("head", TensorProto.FLOAT, [3, 4]),
     T("rest", TensorProto.FLOAT, [0, 4]),
     T("shape", TensorProto.INT64, [3])],
    initializer=[const("one", [1]), const("zero", [0]),
                 const("parts", [3, 0])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "zero_size.onnx"))
