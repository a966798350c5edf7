"""Tests the Python binding (runtime/python/mlc) on the fake models.

usage: python_binding.py LIB_DIR   (the directory holding fake_model*.so)
Prints "all python binding tests passed" on success.
"""
import os
import sys
import threading

import numpy as np

import mlc

from runtime_test_util import expect_raises

lib_dir = sys.argv[1]
path = os.path.join(lib_dir, "fake_model.so")


def reference(a, b):
    y = (a + b.astype(np.float32)).astype(np.float32)
    return y, y > 0, np.int32(b.sum())


m = mlc.load(path)
assert m.inputs == [("a", np.dtype(np.float32), (2, 3)),
                    ("b", np.dtype(np.int64), (3,))], m.inputs
assert m.outputs == [("y", np.dtype(np.float32), (2, 3)),
                     ("positive", np.dtype(np.bool_), (2, 3)),
                     ("total", np.dtype(np.int32), ())], m.outputs
assert m.workspace_bytes == 100
assert "fake_model.so" in repr(m)

rng = np.random.default_rng(0)
a = rng.standard_normal((2, 3)).astype(np.float32)
b = np.array([-1, 0, 7], dtype=np.int64)
want = reference(a, b)

# Positional, keyword, mixed and dict calls agree with numpy.
for got in (m(a, b), m(a=a, b=b), m(a, b=b)):
    assert isinstance(got, tuple) and len(got) == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        np.testing.assert_array_equal(g, w)
outs = m.run({"a": a, "b": b})
assert list(outs) == ["y", "positive", "total"]
np.testing.assert_array_equal(outs["y"], want[0])
assert outs["positive"].dtype == np.bool_
assert outs["total"].shape == () and outs["total"] == want[2]

# Lists convert to the declared dtype; non-contiguous arrays are copied.
got = m(a.tolist(), [-1, 0, 7])
np.testing.assert_array_equal(got[0], want[0])
wide = np.zeros((2, 6), dtype=np.float32)
wide[:, ::2] = a
got = m(wide[:, ::2], b)
np.testing.assert_array_equal(got[0], want[0])
got = m(np.asfortranarray(a), b)
np.testing.assert_array_equal(got[0], want[0])

# Bad arguments: clear Python exceptions, no silent casts.
expect_raises(TypeError, "input 0 ('a'): expected dtype float32 but got "
              "float64", m, a.astype(np.float64), b)
expect_raises(TypeError, "input 1 ('b'): expected dtype int64 but got int32",
              m, a, b.astype(np.int32))
expect_raises(TypeError, "expected int64 values but got float64", m, a,
              [0.5, 1, 2])
expect_raises(ValueError, "input 0 ('a'): expected shape [2, 3] but got "
              "[3, 2]", m, a.T.copy(), b)
expect_raises(ValueError, "expected shape [3] but got [4]", m, a,
              [1, 2, 3, 4])
expect_raises(TypeError, "missing inputs: b", m, a)
expect_raises(TypeError, "takes 2 inputs but 3 were given", m, a, b, b)
expect_raises(TypeError, "no input named 'c'", m, a, b, c=b)
expect_raises(TypeError, "input 'a' given twice", m, a, b, a=a)
expect_raises(TypeError, "missing inputs: a", m.run, {"b": b})

# out=: the caller's arrays written in place and returned, as a sequence
# (in output order) or, for run(), a dict; checked before the run.
y_out = np.full((2, 3), np.nan, np.float32)
pos_out = np.zeros((2, 3), np.bool_)
total_out = np.zeros((), np.int32)
got = m(a, b, out=(y_out, pos_out, total_out))
assert got[0] is y_out and got[1] is pos_out and got[2] is total_out
for g, w in zip((y_out, pos_out, total_out), want):
    np.testing.assert_array_equal(g, w)
y_out[:] = 0
outs = m.run({"a": a, "b": b},
             out={"y": y_out, "positive": pos_out, "total": total_out})
assert outs["y"] is y_out
np.testing.assert_array_equal(y_out, want[0])
expect_raises(TypeError, "out: the model has 3 outputs but 2 arrays were "
              "given", m, a, b, out=(y_out, pos_out))
expect_raises(TypeError, "out 0 ('y'): expected dtype float32 but got "
              "float64", m, a, b, out=(y_out.astype(np.float64), pos_out,
                                       total_out))
expect_raises(ValueError, "out 1 ('positive'): expected shape [2, 3] but "
              "got [3, 2]", m, a, b, out=(y_out, pos_out.T, total_out))
expect_raises(ValueError, "out 0 ('y'): the array must be C-contiguous",
              m, a, b, out=(np.zeros((3, 2), np.float32).T, pos_out,
                            total_out))
readonly = np.zeros((2, 3), np.float32)
readonly.flags.writeable = False
expect_raises(ValueError, "writeable", m, a, b,
              out=(readonly, pos_out, total_out))
expect_raises(TypeError, "out 2 ('total'): expected a numpy array, got "
              "list", m, a, b, out=(y_out, pos_out, [0]))
expect_raises(TypeError, "out: missing outputs: total", m.run,
              {"a": a, "b": b}, out={"y": y_out, "positive": pos_out})
expect_raises(TypeError, "out: the model has no output named 'z'", m.run,
              {"a": a, "b": b}, out={"z": y_out})
# An output buffer that is also an input is refused by the runtime.
expect_raises(mlc.Error, "overlap", m, a, b, out=(a, pos_out, total_out))


# DLPack producers (torch tensors and the like) are viewed, not copied, and
# their dtype must match exactly.
class Producer:
    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


got = m(Producer(a), Producer(b))
np.testing.assert_array_equal(got[0], want[0])
expect_raises(TypeError, "input 1 ('b'): expected dtype int64 but got int32",
              m, Producer(a), Producer(b.astype(np.int32)))
try:
    import torch
except ImportError:
    torch = None
if torch is not None:
    got = m(torch.from_numpy(a), torch.from_numpy(b))
    np.testing.assert_array_equal(got[0], want[0])
    expect_raises(TypeError, "DLPack", m,
                  torch.from_numpy(a).requires_grad_(True), b)

# Concurrent calls from threads.
errors = []


def worker(seed):
    r = np.random.default_rng(seed)
    try:
        for _ in range(50):
            x = r.standard_normal((2, 3)).astype(np.float32)
            z = r.integers(-100, 100, size=3)
            for g, w in zip(m(x, z), reference(x, z)):
                np.testing.assert_array_equal(g, w)
    except Exception as e:  # reported by the main thread
        errors.append(e)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors

with mlc.load(path) as m2:
    np.testing.assert_array_equal(m2(a, b)[0], want[0])
expect_raises(mlc.Error, "closed", m2, a, b)

# Loading failures raise mlc.Error with the runtime's message.
expect_raises(mlc.Error, "no such file", mlc.load,
              os.path.join(lib_dir, "missing.so"))
expect_raises(mlc.Error, "cannot load model", mlc.load, __file__)
expect_raises(mlc.Error, "compiled for model ABI version 99", mlc.load,
              os.path.join(lib_dir, "fake_model_bad_abi.so"))
expect_raises(mlc.Error, "malformed signature: line 2", mlc.load,
              os.path.join(lib_dir, "fake_model_bad_signature.so"))
expect_raises(mlc.Error, "unknown CPU feature 'quantum-tunneling'", mlc.load,
              os.path.join(lib_dir, "fake_model_bad_cpu.so"))
assert issubclass(mlc.Error, RuntimeError)

# A model with one output returns an array, not a tuple.
wide_model = mlc.load(os.path.join(lib_dir, "fake_model_wide.so"))
total = wide_model(*[np.float32(i) for i in range(40)])
assert isinstance(total, np.ndarray) and total.shape == () and total == 780

# Intra-op threads: the setting reaches the model's parallel loops.
online = min(max(os.sysconf("SC_NPROCESSORS_ONLN"), 1), 64)
assert m.num_threads == online, m.num_threads
m.num_threads = 3
assert m.num_threads == 3
m.num_threads = 1000
assert m.num_threads == 64
m.num_threads = 0
assert m.num_threads == online
expect_raises(ValueError, "num_threads must be >= 1, or 0", setattr, m,
              "num_threads", -1)
expect_raises(TypeError, "", setattr, m, "num_threads", 2.5)
assert m.num_threads == online
parallel = mlc.load(os.path.join(lib_dir, "fake_model_parallel.so"))
x = np.arange(1000, dtype=np.float32)
for n in (3, 1, 0):
    parallel.num_threads = n
    y, team = parallel(x)
    np.testing.assert_array_equal(y, 2 * x)
    assert team == (n or online), (n, team)
parallel.close()
expect_raises(mlc.Error, "closed", getattr, parallel, "num_threads")

print("all python binding tests passed")
