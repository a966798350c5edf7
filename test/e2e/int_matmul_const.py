#!/usr/bin/env python3
"""Integer matmuls with constant int8 weights (int-matmul-kernel.test):
writes OUT/model.mlir, its inputs and the int64 numpy reference of every
output. The sizes have tails in K (not a multiple of 4), N (not of 16 or
64) and M (not of 4); values and zero points sit at the ends of their
ranges; the lhs is uint8 or int8, batched or not, with and without a
dequantize epilogue, small and large enough for threads, and with weights
within [-64, 64] (vpmaddubsw without VNNI)."""
import os
import sys

import numpy as np

from casegen import mlir_dense as dense, mlir_tensor as ty, write_main

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)




cases = []  # (name, lhs shape, lhs dtype, zp, K, N, epilogue scale)
cases.append(("u8_tails", (7, 37), np.uint8, 255, 37, 19, None))
cases.append(("u8_batched", (2, 5, 64), np.uint8, 3, 64, 70, 0.125))
cases.append(("s8_zp", (9, 33), np.int8, -128, 33, 16, None))
cases.append(("s8_wide", (4, 300), np.int8, 0, 300, 130, 0.5))
# Enough multiply-adds (36 * 40 * 260 > 2^18) for the threaded form (rows
# in blocks of 4).
cases.append(("u8_threads", (36, 260), np.uint8, 128, 260, 40, 0.25))
# Weights within [-64, 64] (7-bit quantization): vpmaddubsw without VNNI,
# with x at 255 against 64 at the edge of its int16 saturation.
cases.append(("u8_narrow", (5, 20), np.uint8, 3, 20, 24, None))
# Threads over the 36 rows of whole 4-row tiles, then the last 3 rows.
cases.append(("u8_threads_tail", (39, 260), np.uint8, 7, 260, 40, 0.25))

args, results, body, ret_types = [], [], [], []
for name, shape, dt, zp, k, n, scale in cases:
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max + 1, shape).astype(dt)
    x.flat[:4] = [info.min, info.max, info.max, info.min]
    if name.endswith("narrow"):
        w = rng.integers(-64, 65, (k, n)).astype(np.int8)
        w[:4, 0], w[:4, 1] = 64, -64
        x[..., :4] = info.max
    else:
        w = rng.integers(-128, 128, (k, n)).astype(np.int8)
        w.flat[:4] = [-128, 127, -128, 127]
    np.save(os.path.join(out, name + ".npy"), x)
    ref = np.matmul(x.astype(np.int64) - zp, w.astype(np.int64))
    elt = "ui8" if dt == np.uint8 else "i8"
    out_shape = shape[:-1] + (n,)
    args.append("%%%s: %s {mlc.name = \"%s\"}" % (name, ty(shape, elt), name))
    body.append("  %%%s_w = graph.constant %s : %s" % (name, dense(w),
                                                      ty((k, n), "i8")))
    body.append("  %%%s_xz = graph.constant dense<%d> : %s" % (name, zp,
                                                              ty((), elt)))
    body.append("  %%%s_wz = graph.constant dense<0> : tensor<i8>" % name)
    body.append(
        "  %%%s_acc = graph.matmul_integer %%%s, %%%s_w, %%%s_xz, %%%s_wz : "
        "(%s, %s, %s, tensor<i8>) -> %s" % (
            name, name, name, name, name, ty(shape, elt), ty((k, n), "i8"),
            ty((), elt), ty(out_shape, "i32")))
    if scale is None:
        results.append("%%%s_acc" % name)
        ret_types.append(ty(out_shape, "i32"))
        np.save(os.path.join(out, "expected_%s.npy" % name),
                ref.astype(np.int32))
    else:
        body.append("  %%%s_s = graph.constant dense<%r> : tensor<f32>" %
                    (name, scale))
        body.append("  %%%s_z = graph.constant dense<0> : tensor<i32>" % name)
        body.append(
            "  %%%s_f = graph.dequantize %%%s_acc, %%%s_s, %%%s_z : (%s, "
            "tensor<f32>, tensor<i32>) -> %s" % (
                name, name, name, name, ty(out_shape, "i32"),
                ty(out_shape, "f32")))
        results.append("%%%s_f" % name)
        ret_types.append(ty(out_shape, "f32"))
        np.save(os.path.join(out, "expected_%s.npy" % name),
                (ref.astype(np.float32) * np.float32(scale)))

write_main(os.path.join(out, "model.mlir"), args, body, results, ret_types,
           ["out_" + c[0] for c in cases])
