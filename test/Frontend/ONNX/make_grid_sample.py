"""One ONNX model with GridSample in every mode (bilinear, nearest,
bicubic), padding_mode (zeros, border, reflection) and align_corners (0, 1),
on a grid reaching past [-1, 1]; references from PyTorch's grid_sample in
float64. Usage: make_grid_sample.py OUTDIR (writes grid_sample.onnx,
x.npy, grid.npy, expected_<output>.npy and outputs.txt, the --expect
arguments)."""
import itertools
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3)
x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
grid = rng.uniform(-1.4, 1.4, (2, 4, 6, 2)).astype(np.float32)
grid[0, 0, 0] = [1.0, -1.0]  # exact corners and the centre
grid[0, 0, 1] = [0.0, 0.0]
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "grid.npy"), grid)

nodes, outputs, expects = [], [], []
for mode, pad, ac in itertools.product(["bilinear", "nearest", "bicubic"],
                                       ["zeros", "border", "reflection"],
                                       [0, 1]):
    name = "y_%s_%s_%d" % (mode, pad, ac)
    nodes.append(helper.make_node("GridSample", ["x", "grid"], [name],
                                  mode=mode, padding_mode=pad,
                                  align_corners=ac))
    outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                 [2, 3, 4, 6]))
    ref = torch.nn.functional.grid_sample(
        torch.from_numpy(x).double(), torch.from_numpy(grid).double(),
        mode=mode, padding_mode=pad, align_corners=bool(ac))
    path = os.path.join(out, "expected_%s.npy" % name)
    np.save(path, ref.numpy().astype(np.float32))
    expects.append("--expect %s=%s" % (name, path))
T = helper.make_tensor_value_info
g = helper.make_graph(nodes, "grid_sample",
                      [T("x", TensorProto.FLOAT, [2, 3, 5, 7]),
                       T("grid", TensorProto.FLOAT, [2, 4, 6, 2])], outputs)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
onnx.checker.check_model(m, full_check=True)
onnx.save(m, os.path.join(out, "grid_sample.onnx"))
with open(os.path.join(out, "outputs.txt"), "w") as f:
    f.write(" ".join(expects) + "\n")
