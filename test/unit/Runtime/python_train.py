"""Tests the Python binding's training API on the fake trainable models.

usage: python_train.py LIB_DIR TMP_DIR
Prints "all python training tests passed" on success.
"""
import json
import os
import struct
import sys
import threading

import numpy as np

import mlc

from runtime_test_util import expect_raises

lib_dir, tmp = sys.argv[1], sys.argv[2]

m = mlc.load(os.path.join(lib_dir, "fake_train_regression.so"))
f32, i64 = np.dtype(np.float32), np.dtype(np.int64)
assert m.trainable
assert m.inputs == [("x", f32, (2, 3))], m.inputs
assert m.train_inputs == [("x", f32, (4, 3)), ("y", f32, (4, 1))]
assert m.variables == [("w", "param", f32, (3, 1)), ("b", "param", f32, (1,)),
                       ("ymean", "buffer", f32, (1,)),
                       ("step", "state", i64, ())], m.variables
w0 = np.array([[0.1], [-0.2], [0.3]], np.float32)
np.testing.assert_array_equal(m.get_variable("w"), w0)
assert m.get_variable("step") == 0

# One step against numpy (the fake model's SGD, lr 0.1).
rng = np.random.default_rng(0)
true_w = np.array([[2.0], [-1.0], [0.5]], np.float32)
x = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
y = (x @ true_w + 0.25).astype(np.float32)
pred = x @ w0
loss = m.train_step(x, y)
assert isinstance(loss, float)
assert abs(loss - float(np.mean((pred - y) ** 2))) < 1e-5, loss
g = 2 * (pred - y) / 4
np.testing.assert_allclose(m.get_variable("w"), w0 - 0.1 * x.T @ g,
                           rtol=1e-5, atol=1e-6)
np.testing.assert_allclose(m.get_variable("b"), -0.1 * g.sum(keepdims=True)
                           .reshape(1), rtol=1e-5, atol=1e-6)
assert m.get_variable("step") == 1
m.train_step(x=x, y=y)
assert m.get_variable("step") == 2

# Training converges; inference uses the trained parameters.
for _ in range(300):
    xb = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    loss = m.train_step(xb, (xb @ true_w + 0.25).astype(np.float32))
assert loss < 1e-3, loss
xi = rng.uniform(-1, 1, (2, 3)).astype(np.float32)
np.testing.assert_allclose(m(xi), xi @ m.get_variable("w") +
                           m.get_variable("b"), rtol=1e-5, atol=1e-5)

# set_variable, save and load.
m.set_variable("w", true_w)
m.set_variable("b", [0.25])
np.testing.assert_allclose(m(xi), xi @ true_w + 0.25, rtol=1e-6)
path = os.path.join(tmp, "w.safetensors")
m.save(path)
data = open(path, "rb").read()
(n,) = struct.unpack("<Q", data[:8])
header = json.loads(data[8:8 + n])
assert header["w"] == {"dtype": "F32", "shape": [3, 1],
                       "data_offsets": [0, 12]}, header
assert "step" not in header
m.save(os.path.join(tmp, "full.safetensors"), include_state=True)
steps = int(m.get_variable("step"))
m.reset()
np.testing.assert_array_equal(m.get_variable("w"), w0)
assert m.get_variable("step") == 0
m.load_weights(path)
np.testing.assert_array_equal(m.get_variable("w"), true_w)
assert m.get_variable("step") == 0  # state not in the file: kept
m.load_weights(os.path.join(tmp, "full.safetensors"))
assert m.get_variable("step") == steps

# Errors.
expect_raises(TypeError, "train input 0 ('x'): expected dtype float32 but "
              "got float64", m.train_step, x.astype(np.float64), y)
expect_raises(ValueError, "train input 1 ('y'): expected shape [4, 1] but "
              "got [4]", m.train_step, x, y[:, 0])
expect_raises(TypeError, "missing train inputs: y", m.train_step, x)
expect_raises(TypeError, "the model takes 2 train inputs but 3", m.train_step,
              x, y, y)
expect_raises(KeyError, "no variable named 'v' (variables: w, b, ymean, "
              "step)", m.get_variable, "v")
expect_raises(ValueError, "variable 0 ('w'): expected shape [3, 1]",
              m.set_variable, "w", np.zeros(3, np.float32))
expect_raises(TypeError, "variable 3 ('step'): expected dtype int64",
              m.set_variable, "step", np.ones((), np.float32))
expect_raises(mlc.Error, "cannot open", m.load_weights,
              os.path.join(tmp, "missing.safetensors"))
expect_raises(mlc.Error, "cannot create", m.save,
              os.path.join(tmp, "no", "dir.safetensors"))
cls = mlc.load(os.path.join(lib_dir, "fake_train_classifier.so"))
expect_raises(mlc.Error, "tensor 'w' is not a variable of the model",
              cls.load_weights, path)

# Runs from threads while the main thread trains.
errors = []


def worker():
    try:
        for _ in range(200):
            out = m(xi)
            assert out.shape == (2, 1) and np.isfinite(out).all()
    except Exception as e:  # reported by the main thread
        errors.append(e)


threads = [threading.Thread(target=worker) for _ in range(4)]
for t in threads:
    t.start()
for _ in range(100):
    m.train_step(x, y)
for t in threads:
    t.join()
assert not errors, errors

# Plain models are unchanged and refuse training.
plain = mlc.load(os.path.join(lib_dir, "fake_model.so"))
assert not plain.trainable
assert plain.variables == [] and plain.train_inputs == []
expect_raises(mlc.Error, "is not a trainable model", plain.train_step)
expect_raises(mlc.Error, "is not a trainable model", plain.save, path)
m.close()
expect_raises(mlc.Error, "closed", m.train_step, x, y)

print("all python training tests passed")
