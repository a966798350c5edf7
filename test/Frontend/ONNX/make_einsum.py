"""One ONNX model with Einsum in forms numpy.einsum defines: ellipses
(broadcast between operands, in the middle of a term, implicit outputs),
diagonals (a trace, a batch diagonal, a diagonal feeding a contraction).
Usage: make_einsum.py OUTDIR (writes einsum.onnx, inputs, expected_*.npy and
args.txt, the -i/--expect arguments)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(9)
CASES = [
    ("bcast", "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("middle", "i...k,k->i...", [(3, 2, 5, 4), (4,)]),
    ("implicit", "...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("trace", "ii->", [(4, 4)]),
    ("batch_diag", "...ii->...i", [(2, 3, 5, 5)]),
    ("diag_contract", "iij,jk->ik", [(3, 3, 4), (4, 2)]),
]
nodes, inputs, outputs, args = [], [], [], []
for name, eq, shapes in CASES:
    names = []
    arrays = []
    for k, s in enumerate(shapes):
        v = rng.standard_normal(s).astype(np.float32)
        vname = "%s_%d" % (name, k)
        names.append(vname)
        arrays.append(v)
        inputs.append(helper.make_tensor_value_info(vname, TensorProto.FLOAT,
                                                    list(s)))
        np.save(os.path.join(out, vname + ".npy"), v)
        args.append("-i %s=%s" % (vname, os.path.join(out, vname + ".npy")))
    ref = np.einsum(eq, *[a.astype(np.float64) for a in arrays])
    ref = np.array(ref, np.float32)
    nodes.append(helper.make_node("Einsum", names, [name], equation=eq))
    outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                 list(ref.shape)))
    path = os.path.join(out, "expected_%s.npy" % name)
    np.save(path, ref)
    args.append("--expect %s=%s" % (name, path))
g = helper.make_graph(nodes, "einsum", inputs, outputs)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
# ONNX 1.12's shape inference wants ellipses of one rank; numpy (and the
# spec) broadcast them.
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "einsum.onnx"))
with open(os.path.join(out, "args.txt"), "w") as f:
    f.write(" ".join(args) + "\n")
