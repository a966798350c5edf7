"""Tests the Python binding's profiling API on the fake models.

usage: python_profile.py LIB_DIR   (the directory holding fake_model*.so)
Prints "all python profiling tests passed" on success.
"""
import os
import sys
import threading

import numpy as np

import mlc

from runtime_test_util import expect_raises

lib_dir = sys.argv[1]

a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = np.array([-1, 0, 7], dtype=np.int64)

# A model without a kernel table: no kernels, and profiling cannot start.
plain = mlc.load(os.path.join(lib_dir, "fake_model.so"))
assert plain.kernels == []
assert plain.profiling is False
expect_raises(mlc.Error, "has no kernel table", setattr, plain, "profiling",
              True)
plain.profiling = False
assert plain.kernel_times() == []
plain.close()

m = mlc.load(os.path.join(lib_dir, "fake_model_profiled.so"))
assert m.kernels == [mlc.Kernel(0, "row add 'a'+\"b\"", "add", "run", 12),
                     mlc.Kernel(1, "positive", "compare", "run", 9)], m.kernels
assert m.kernels[1].flops == 9 and m.kernels[0].ops == "add"
m(a, b)
assert m.kernel_times() == [(0.0, 0), (0.0, 0)]

m.profiling = True
assert m.profiling is True
for _ in range(3):
    m(a, b)
times = m.kernel_times()
assert [calls for _, calls in times] == [3, 3], times
# Kernel 0 busy-waits about a millisecond per call.
assert times[0][0] >= 3e-3 and times[1][0] < times[0][0], times

# Runs from several threads at once add up.
threads = [threading.Thread(target=lambda: [m(a, b) for _ in range(5)])
           for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert [calls for _, calls in m.kernel_times()] == [23, 23]

m.profiling = False
m(a, b)
assert [calls for _, calls in m.kernel_times()] == [23, 23]
m.reset_profile()
assert m.kernel_times() == [(0.0, 0), (0.0, 0)]
m.close()
expect_raises(mlc.Error, "closed", m.kernel_times)
expect_raises(mlc.Error, "closed", setattr, m, "profiling", True)

# A trainable model's train step and init have kernels of their own.
t = mlc.load(os.path.join(lib_dir, "fake_train_profiled.so"))
assert [(k.name, k.entry) for k in t.kernels] == [
    ("predict", "run"), ("loss", "train"), ("sgd update", "train"),
    ("init", "init")], t.kernels
t.profiling = True
x = np.ones((4, 3), np.float32)
y = np.ones((4, 1), np.float32)
t.train_step(x, y)
t.train_step(x, y)
t.reset()
assert [calls for _, calls in t.kernel_times()] == [0, 2, 2, 1]
t.close()

print("all python profiling tests passed")
