"""Runs unsigned_model.py's compiled model through the Python binding:
uint8/16/64 numpy arrays in, unsigned dtypes out, exactly the references.

usage: check_unsigned_python.py MODEL.so DATA_DIR
"""
import os
import sys

import numpy as np

import mlc

model, data = sys.argv[1], sys.argv[2]
m = mlc.load(model)
dtypes = {name: dtype for name, dtype, _ in m.inputs + m.outputs}
assert dtypes["a"] == np.uint64 and dtypes["h"] == np.uint16, dtypes
assert dtypes["to_u32"] == np.uint32 and dtypes["add8"] == np.uint8, dtypes
inputs = {name: np.load(os.path.join(data, name + ".npy"))
          for name, _, _ in m.inputs}
outputs = m.run(inputs)
for name, got in outputs.items():
    want = np.load(os.path.join(data, "expected_" + name + ".npy"))
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=name)
print("python: %d unsigned outputs match" % len(outputs))
