#!/usr/bin/env python3
"""Inputs and expected outputs of Inputs/quantize.mlir (quantize.test).

The reference is ONNX's definition computed in numpy: the division in
float32 (as the kernels do), round half to even, then the zero point and
saturation in int64; dequantization in int64 then float32. Inputs hit the
edges: ties on both sides of zero, values past both ends of the range,
NaN, and zero points and values at both ends of int8 and uint8."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
shape = (4, 3, 5)

# Ties k + 0.5 of both signs (x = 2k+1 quarters at scale 0.5), far outside
# the range, NaN and ordinary values.
x = rng.uniform(-80, 80, size=shape).astype(np.float32)
x.flat[:12] = np.array([0.25, -0.25, 0.75, -0.75, 1.25, -1.25, 63.75, -64.25,
                        1e6, -1e6, np.nan, 0.0], np.float32)
u = rng.integers(0, 256, size=shape, dtype=np.uint8)
u.flat[:4] = [0, 255, 128, 1]
s = rng.integers(-128, 128, size=shape, dtype=np.int8)
s.flat[:4] = [-128, 127, 0, -1]
qs = np.array([0.5, 0.03125, 3.0], np.float32).reshape(1, 3, 1)
zu = np.array([0, 255, 128], np.uint8).reshape(1, 3, 1)
zs = np.array([-128, 127, 0], np.int8).reshape(1, 3, 1)


def quantize(x, scale, zp, lo, hi, dtype):
    q = np.rint(np.float32(x) / np.float32(scale))  # float32 division
    q = np.where(np.isnan(q), 0, q)
    return np.clip(q.astype(np.int64) + zp.astype(np.int64), lo, hi).astype(
        dtype)


def dequantize(v, scale, zp):
    d = v.astype(np.int64) - zp.astype(np.int64)
    return (d.astype(np.float32) * np.float32(scale)).astype(np.float32)


with np.errstate(invalid="ignore"):
    expected = {
        "q_u8_tensor": quantize(x, np.float32(0.5), np.uint8(128), 0, 255,
                                np.uint8),
        "q_i8_tensor": quantize(x, np.float32(0.5), np.int8(-1), -128, 127,
                                np.int8),
        "q_u8_axis": quantize(x, qs, zu, 0, 255, np.uint8),
        "q_i8_axis": quantize(x, qs, zs, -128, 127, np.int8),
        "dq_u8_axis": dequantize(u, qs, zu),
        "dq_i8_axis": dequantize(s, qs, zs),
        "dq_u8_tensor": dequantize(u, np.float32(0.5), np.uint8(128)),
        "u8_to_f32": u.astype(np.float32),
        "u8_to_i32": u.astype(np.int32),
        "i8_to_u8": s.view(np.uint8),
    }
for name, value in dict(x=x, u=u, s=s, qs=qs, zu=zu, zs=zs).items():
    np.save(os.path.join(out, name + ".npy"), value)
for name, value in expected.items():
    np.save(os.path.join(out, "expected_" + name + ".npy"), value)
