#!/usr/bin/env python3
"""Two Gemm layers with transB=1, as PyTorch exports nn.Linear, and their
float64 numpy reference (gemm-transb.test).

x [2, 512] -> Gemm(W1 [256, 512], b1, transB) -> Relu
           -> Gemm(W2 [40, 256], b2, transB) -> y [2, 40]

On the CPU the weights' transposes are not folded: each joins its matmul's
kernel, which packs the weight from its stored [N, K] layout, in place when
N is a multiple of the kernel's column block (256) and through a copy
otherwise (40 with 16-float AVX-512 columns)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
x = rng.standard_normal((2, 512)).astype(np.float32)
w1 = (rng.standard_normal((256, 512)) / 16).astype(np.float32)
b1 = rng.standard_normal(256).astype(np.float32)
w2 = (rng.standard_normal((40, 256)) / 16).astype(np.float32)
b2 = rng.standard_normal(40).astype(np.float32)

inits = [numpy_helper.from_array(a, n)
         for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))]
nodes = [
    helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1),
    helper.make_node("Relu", ["h"], ["r"]),
    helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], transB=1),
]
graph = helper.make_graph(
    nodes, "gemm_transb",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 512])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 40])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "gemm_transb.onnx"))

h = np.maximum(x.astype(np.float64) @ w1.T.astype(np.float64) + b1, 0)
y = h @ w2.T.astype(np.float64) + b2
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))
