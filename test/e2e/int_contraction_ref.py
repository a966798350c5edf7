#!/usr/bin/env python3
"""Inputs and expected outputs of Inputs/integer-contractions.mlir
(integer-contractions.test).

The reference is plain int64 numpy: (x - x_zp) * (w - w_zp) summed, with
padding that holds the input's zero point. Sizes are odd so every vector
loop has a tail; values and zero points sit at both ends of int8 and
uint8 (-128, 127, 0, 255), so the products reach +-255 * 255."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)


def ints(shape, dtype, edges):
    info = np.iinfo(dtype)
    v = rng.integers(info.min, info.max + 1, size=shape, dtype=dtype)
    v.flat[:len(edges)] = edges
    return v


def save(name, a):
    np.save(os.path.join(out, name + ".npy"), a)


def matmul(a, b, az, bz):
    return np.matmul(a.astype(np.int64) - az, b.astype(np.int64) - bz)


def conv(x, w, xz, wz, strides, pads, dilations, groups):
    """NCHW x OIHW, pads [top, left, bottom, right], in int64."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.full((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]),
                 xz, np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    xp -= xz
    wc = w.astype(np.int64) - wz
    oh = (xp.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * dilations[0]:i * dilations[0] +
                           strides[0] * (oh - 1) + 1:strides[0],
                           j * dilations[1]:j * dilations[1] +
                           strides[1] * (ow - 1) + 1:strides[1]]
                y[:, oc] += np.einsum("nchw,c->nhw", patch, wc[oc, :, i, j])
    return y


def expect(name, v):
    assert np.abs(v).max() < 2**31
    save("expected_" + name, v.astype(np.int32))


U8_EDGES = [0, 255, 255, 0, 128, 1]
S8_EDGES = [-128, 127, -128, 127, 0, -1]

# u8 x s8, per-row and per-column zero points (inputs), 7x37 x 37x19.
a = ints((7, 37), np.uint8, U8_EDGES)
b = ints((37, 19), np.int8, S8_EDGES)
az = np.array([0, 255, 128, 1, 17, 200, 99], np.uint8).reshape(7, 1)
bz = ints((19,), np.int8, [-128, 127, 0])
save("a", a), save("b", b), save("az", az), save("bz", bz)
expect("mm_u8_s8", matmul(a, b, az, bz))

# s8 x u8, batched lhs, constant zero points -128 and 255: every product
# of edge values is +-255 * 255.
a2 = ints((3, 5, 33), np.int8, [127] * 40)
b2 = ints((33, 17), np.uint8, [0] * 20)
save("a2", a2), save("b2", b2)
expect("mm_s8_u8_batched", matmul(a2, b2, -128, 255))

# s8 x s8 and u8 x u8, long K, zero points zero.
a3 = ints((4, 301), np.int8, S8_EDGES)
b3 = ints((301, 9), np.int8, S8_EDGES)
save("a3", a3), save("b3", b3)
expect("mm_s8_s8", matmul(a3, b3, 0, 0))
a4 = ints((4, 301), np.uint8, U8_EDGES)
b4 = ints((301, 9), np.uint8, U8_EDGES)
save("a4", a4), save("b4", b4)
expect("mm_u8_u8", matmul(a4, b4, 0, 0))

# Convolutions: u8 input with a runtime zero point, per-channel s8 filter
# zero points; 3x3 pad 1; stride 2, dilation 2, asymmetric pads, two
# groups; depthwise s8 with zero point -128.
x = ints((2, 5, 9, 11), np.uint8, U8_EDGES)
xz = np.array([255], np.uint8)
w = ints((7, 5, 3, 3), np.int8, S8_EDGES)
wz = ints((7, 1, 1, 1), np.int8, [-128, 127, 0])
save("x", x), save("xz", xz), save("w", w), save("wz", wz)
expect("conv_3x3", conv(x, w, 255, wz, (1, 1), (1, 1, 1, 1), (1, 1), 1))

x2 = ints((1, 6, 13, 10), np.uint8, U8_EDGES)
w2 = ints((4, 3, 3, 2), np.int8, S8_EDGES)
save("x2", x2), save("w2", w2)
expect("conv_grouped",
       conv(x2, w2, 0, 0, (2, 1), (2, 0, 1, 3), (2, 2), 2))

x3 = ints((1, 9, 7, 7), np.int8, S8_EDGES)
w3 = ints((9, 1, 3, 3), np.int8, S8_EDGES)
save("x3", x3), save("w3", w3)
expect("conv_depthwise",
       conv(x3, w3, -128, 0, (1, 1), (1, 1, 1, 1), (1, 1), 9))
