"""Runs a compiled model through the Python binding on DIR/<input>.npy and
checks every output against DIR/expected_<output>.npy: same dtype, same
shape, same values (exactly). unsigned-integers.test (numpy's unsigned
dtypes in and out) and zero-size-tensors.test (empty arrays) use it.

usage: check_python_outputs.py MODEL.so DIR
"""
import os
import sys

import numpy as np

import mlc

model, data = sys.argv[1], sys.argv[2]
m = mlc.load(model)
inputs = {name: np.load(os.path.join(data, name + ".npy"))
          for name, _, _ in m.inputs}
for name, dtype, shape in m.inputs:
    assert inputs[name].dtype == dtype and inputs[name].shape == shape, name
outputs = m.run(inputs)
for name, got in outputs.items():
    want = np.load(os.path.join(data, "expected_" + name + ".npy"))
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    np.testing.assert_array_equal(got, want, err_msg=name)
print("python: %d outputs match" % len(outputs))
