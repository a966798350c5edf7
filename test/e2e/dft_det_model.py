#!/usr/bin/env python3
"""ONNX models of DFT and Det with numpy references (dft-det.test): a real
signal's onesided DFT with dft_length padding it, a complex signal's DFT
truncated by dft_length along axis 2, an f64 inverse DFT, and determinants
of batches of 3x3 and 4x4 matrices (numpy.linalg.det)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)
real = rng.standard_normal((2, 12, 1)).astype(np.float32)
cplx = rng.standard_normal((2, 3, 9, 2)).astype(np.float32)
inv = rng.standard_normal((1, 8, 2))
m3 = rng.standard_normal((5, 3, 3)).astype(np.float32)
m4 = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
inputs = {"real": real, "cplx": cplx, "inv": inv, "m3": m3, "m4": m4}
for name, v in inputs.items():
    np.save(os.path.join(out, name + ".npy"), v)


def stack(z):
    return np.stack([z.real, z.imag], -1)


onesided = np.fft.rfft(real[..., 0], n=16, axis=1)
truncated = np.fft.fft(cplx[..., 0] + 1j * cplx[..., 1], n=7, axis=2)
inverse = np.fft.ifft(inv[..., 0] + 1j * inv[..., 1], axis=1)
expected = {
    "onesided": stack(onesided).astype(np.float32),
    "truncated": stack(truncated).astype(np.float32),
    "inverse": stack(inverse),
    "det3": np.linalg.det(m3.astype(np.float64)).astype(np.float32),
    "det4": np.linalg.det(m4.astype(np.float64)).astype(np.float32),
}
for name, v in expected.items():
    np.save(os.path.join(out, "expected_" + name + ".npy"), v)


def length(name, n):
    return helper.make_tensor(name, TensorProto.INT64, [], [n])


nodes = [
    helper.make_node("DFT", ["real", "len16"], ["onesided"], axis=1,
                     onesided=1),
    helper.make_node("DFT", ["cplx", "len7"], ["truncated"], axis=2),
    helper.make_node("DFT", ["inv"], ["inverse"], axis=-2, inverse=1),
    helper.make_node("Det", ["m3"], ["det3"]),
    helper.make_node("Det", ["m4"], ["det4"]),
]
T = helper.make_tensor_value_info
F, D = TensorProto.FLOAT, TensorProto.DOUBLE
graph = helper.make_graph(
    nodes, "dft_det",
    [T("real", F, [2, 12, 1]), T("cplx", F, [2, 3, 9, 2]),
     T("inv", D, [1, 8, 2]), T("m3", F, [5, 3, 3]), T("m4", F, [2, 3, 4, 4])],
    [T("onesided", F, [2, 9, 2]), T("truncated", F, [2, 3, 7, 2]),
     T("inverse", D, [1, 8, 2]), T("det3", F, [5]), T("det4", F, [2, 3])],
    initializer=[length("len16", 16), length("len7", 7)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "dft_det.onnx"))
