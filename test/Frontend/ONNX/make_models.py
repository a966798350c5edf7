"""Writes small ONNX models for the importer's FileCheck tests (import.test).
Usage: make_models.py OUTDIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def t(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


F = TensorProto.FLOAT
# Gemm with transB and a bias: transpose, matmul, add.
save("gemm", [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1,
                               alpha=2.0)],
     [t("x", F, [2, 4])], [t("y", F, [2, 3])],
     [numpy_helper.from_array(rng.standard_normal((3, 4)).astype(np.float32), "w"),
      numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), "b")])
# A Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain folds at import.
save("shape_chain", [
    helper.make_node("Shape", ["x"], ["s"]),
    helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
    helper.make_node("Unsqueeze", ["n", "zero1"], ["n1"]),
    helper.make_node("Concat", ["n1", "minus1"], ["target"], axis=0),
    helper.make_node("Reshape", ["x", "target"], ["y"])],
    [t("x", F, [3, 4, 5])], [t("y", F, [3, 20])],
    [numpy_helper.from_array(np.array(0, np.int64), "zero"),
     numpy_helper.from_array(np.array([0], np.int64), "zero1"),
     numpy_helper.from_array(np.array([-1], np.int64), "minus1")])
# Nearest 2x upsampling: one constant interpolation matrix per resized axis.
save("resize", [helper.make_node("Resize", ["x", "", "scales"], ["y"],
                                 mode="nearest")],
     [t("x", F, [1, 1, 2, 3])], [t("y", F, [1, 1, 4, 6])],
     [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")])
# HardSigmoid decomposes into scale, shift and clamp.
save("hardsigmoid", [helper.make_node("HardSigmoid", ["x"], ["y"], alpha=0.5)],
     [t("x", F, [4])], [t("y", F, [4])])
