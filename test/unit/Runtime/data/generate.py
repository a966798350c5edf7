"""Regenerates the checked-in .npy test files: /usr/bin/python3 generate.py

npy_*.npy are read by mlc-npy-tests; the others feed the mlc-run lit tests
(fake_model.c: y = a + b per row, positive = y > 0, total = sum(b)).
"""
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def save(name, array, version=None):
    path = os.path.join(here, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version,
                                  allow_pickle=False)


base = np.arange(6).reshape(2, 3)
for descr in ["<f4", "<f8", "<f2", "|i1", "<i2", "<i4", "<i8", "|u1", "|b1",
              "<u2", "<u4", "<u8"]:
    kind = descr[1:]
    values = base % 2 == 1 if kind == "b1" else base * 3 - 4
    if kind[0] == "u":
        values = base * 40
    if kind[0] == "f":
        values = base * 0.5 - 1.25
    save(f"npy_{kind}.npy", np.asarray(values, dtype=descr))
save("npy_scalar.npy", np.array(3.5, dtype="<f8"))
save("npy_empty.npy", np.zeros((0, 3), dtype="<i4"))
save("npy_v2.npy", np.arange(4, dtype="<f4"), version=(2, 0))
save("npy_v3.npy", np.arange(4, dtype="<f4"), version=(3, 0))
save("npy_fortran.npy", np.asfortranarray(base.astype("<f4")))
save("npy_bigendian.npy", base.astype(">f4"))
save("npy_complex.npy", base.astype("<c8"))

a = (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5).astype(np.float32)
b = np.array([-5, 5, 15], dtype=np.int64)
y = (a + b.astype(np.float32)).astype(np.float32)
save("a.npy", a)
save("b.npy", b)
save("y.npy", y)
save("positive.npy", y > 0)
save("total.npy", np.array(b.sum(), dtype=np.int32))
wrong = y.copy()
wrong[1, 2] += 0.5
wrong[0, 1] += 0.25
save("y_wrong.npy", wrong)
save("a_f64.npy", a.astype(np.float64))
save("a_transposed.npy", np.ascontiguousarray(a.T))
