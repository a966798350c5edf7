"""Tests mlc.compile and mlc.from_torch (runtime/python/mlc/compiler.py)
over libmlc_compiler.so ($MLC_COMPILER_LIBRARY).

usage: python_compiler.py MODELS_DIR SCRATCH_DIR
Prints "all python compiler tests passed" on success.
"""
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper

import mlc

from runtime_test_util import expect_raises

models, scratch = sys.argv[1], sys.argv[2]
mlp_json = os.path.join(models, "mlp", "model.json")
x = np.load(os.path.join(models, "mlp", "inputs", "x.npy"))
logits = np.load(os.path.join(models, "mlp", "expected", "logits.npy"))

# A model.json path with keyword options and raw flags; the progress
# callback sees the phases and the back end's parts.
seen = []
m = mlc.compile(mlp_json, opt_level=3, jobs=1, cpu="native",
                flags=["--winograd=false"],
                progress=lambda phase, done, total: seen.append(
                    (phase, done, total)))
np.testing.assert_allclose(m(x), logits, rtol=1e-4, atol=1e-5)
assert seen[0] == ("import", 0, 0), seen
assert any(total > 0 and done == total for _, done, total in seen), seen
assert mlc.compiler_version() == "0.1.0"
assert "--input-shape=<NAME=DIMS>" in mlc.compile_flags_help()
print("ok model.json path, options, progress")

# train=True: a trainable model; one step on a zero batch gives a finite
# loss and changes the parameters.
t = mlc.compile(os.path.join(models, "digits_mlp", "model.json"), train=True)
assert t.trainable
name = t.variables[0][0]
before = t.get_variable(name)
batch = [np.ones(shape, dtype) for _, dtype, shape in t.train_inputs]
assert np.isfinite(t.train_step(*batch))
assert not np.array_equal(before, t.get_variable(name))
print("ok train=True")

# output= keeps the model.so; the loaded model does not need it.
kept = os.path.join(scratch, "mlp.so")
m2 = mlc.compile(mlp_json, kept)
assert os.path.isfile(kept)
np.testing.assert_array_equal(mlc.load(kept)(x), m2(x))
print("ok output kept")


# An ONNX model with a dynamic batch: bytes and ModelProto, input_shapes.
def matmul_model(k_rows):
    w = helper.make_tensor("w", TensorProto.FLOAT, [k_rows, 3],
                           np.arange(k_rows * 3, dtype=np.float32).tolist())
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="the_matmul")],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                            ["batch", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


proto = matmul_model(4)
xin = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
want = xin.astype(np.float64) @ np.arange(12, dtype=np.float64).reshape(4, 3)
for model in (proto, proto.SerializeToString()):
    m = mlc.compile(model, input_shapes={"x": (2, 4)})
    assert m.inputs == [("x", np.dtype(np.float32), (2, 4))], m.inputs
    np.testing.assert_allclose(m(xin), want, rtol=1e-5)
print("ok ONNX bytes and ModelProto with input_shapes")

# A broken model: CompileError naming the file and the node; nothing left.
broken_out = os.path.join(scratch, "broken.so")
try:
    mlc.compile(matmul_model(5), broken_out, input_shapes={"x": (2, 4)},
                source_name="broken")
    raise AssertionError("a broken model compiled")
except mlc.CompileError as e:
    assert e.place == "node 'the_matmul' (MatMul)", e.place
    assert e.file.endswith("broken.onnx"), e.file
    assert e.diagnostics[0].severity == "error"
    assert "the_matmul" in str(e) and "error:" in str(e), str(e)
    assert isinstance(e, mlc.Error)
    message = str(e)
assert not os.path.exists(broken_out)
print("ok CompileError names the node:", message.split(": ", 1)[1])

# Misuse: clear Python errors.
expect_raises(TypeError, "option bogus=1: unknown flag '--bogus=1'",
              mlc.compile, mlp_json, bogus=1)
expect_raises(ValueError, "writes a model.so, not 'pdf'", mlc.compile,
              mlp_json, emit="pdf")
expect_raises(ValueError, "option target='tpu': --target expects",
              mlc.compile, mlp_json, target="tpu")
expect_raises(ValueError, "not 'archive'", mlc.compile, mlp_json,
              flags=["--emit=archive"])
expect_raises(ValueError, "not '.a'", mlc.compile, mlp_json,
              os.path.join(scratch, "m.a"))
expect_raises(mlc.CompileError, "-O7 is not a valid level", mlc.compile,
              mlp_json, opt_level=7)
expect_raises(mlc.CompileError, "unknown flag '--nope'", mlc.compile,
              mlp_json, flags=["--nope"])
expect_raises(FileNotFoundError, "no such model file", mlc.compile,
              os.path.join(scratch, "missing.onnx"))
expect_raises(TypeError, "expects a model path", mlc.compile, 42)
print("ok misuse")


# from_torch: names from forward(), torch tensors in, PyTorch's outputs.
class TwoInputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, a, b):
        return torch.relu(self.fc(a)) * b, a.sum(dim=1)


torch.manual_seed(0)
net = TwoInputs()
a, b = torch.randn(3, 8), torch.randn(3, 4)
m = mlc.from_torch(net, (a, b), opt_level=2)
assert [n for n, _, _ in m.inputs] == ["a", "b"], m.inputs
assert [n for n, _, _ in m.outputs] == ["output0", "output1"], m.outputs
with torch.no_grad():
    ref = [t.numpy() for t in net(a, b)]
for got, r in zip(m(a, b), ref):
    np.testing.assert_allclose(got, r, rtol=1e-5, atol=1e-6)
assert net.training  # the module's mode is restored
print("ok from_torch")

print("all python compiler tests passed")
