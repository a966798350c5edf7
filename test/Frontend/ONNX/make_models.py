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
# Nearest 2x upsampling: one graph.resize over H and W, one tap each.
save("resize", [helper.make_node("Resize", ["x", "", "scales"], ["y"],
                                 mode="nearest")],
     [t("x", F, [1, 1, 2, 3])], [t("y", F, [1, 1, 4, 6])],
     [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")])
# Linear with align_corners to sizes: two taps where a row falls between
# inputs, one where it hits an input; the unresized W axis is left out.
save("resize_linear", [helper.make_node(
    "Resize", ["x", "", "", "sizes"], ["y"], mode="linear",
    coordinate_transformation_mode="align_corners")],
    [t("x", F, [1, 2, 3, 4])], [t("y", F, [1, 2, 5, 4])],
    [numpy_helper.from_array(np.array([1, 2, 5, 4], np.int64), "sizes")])
# tf_crop_and_resize outside the roi: weight 0 there, then the
# extrapolation value added.
save("resize_crop", [helper.make_node(
    "Resize", ["x", "roi", "", "sizes"], ["y"], mode="linear",
    coordinate_transformation_mode="tf_crop_and_resize",
    extrapolation_value=7.0)],
    [t("x", F, [1, 1, 4, 4])], [t("y", F, [1, 1, 3, 3])],
    [numpy_helper.from_array(np.array([0, 0, 0.4, 0.6, 1, 1, 1.2, 1.7],
                                      np.float32), "roi"),
     numpy_helper.from_array(np.array([1, 1, 3, 3], np.int64), "sizes")])
# Upsample (opset 9) is the same resize.
save("upsample", [helper.make_node("Upsample", ["x", "scales"], ["y"],
                                   mode="nearest")],
     [t("x", F, [1, 2, 2, 2])], [t("y", F, [1, 2, 2, 6])],
     [numpy_helper.from_array(np.array([1, 1, 1, 3], np.float32), "scales")],
     opset=9)
# ConvTranspose with stride = kernel: one graph.conv_transpose2d; with a
# stride below the kernel: a conv2d of the zero-dilated input.
save("convtranspose", [
    helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                     kernel_shape=[2, 3], strides=[2, 3]),
    helper.make_node("ConvTranspose", ["x", "w"], ["z"],
                     kernel_shape=[2, 3], strides=[1, 2])],
    [t("x", F, [1, 3, 4, 5])], [t("y", F, [1, 2, 8, 15]),
                                t("z", F, [1, 2, 5, 11])],
    [numpy_helper.from_array(rng.standard_normal((3, 2, 2, 3)).astype(
        np.float32), "w"),
     numpy_helper.from_array(rng.standard_normal(2).astype(np.float32), "b")])
# HardSigmoid decomposes into scale, shift and clamp.
save("hardsigmoid", [helper.make_node("HardSigmoid", ["x"], ["y"], alpha=0.5)],
     [t("x", F, [4])], [t("y", F, [4])])
