#!/usr/bin/env python3
"""Integer convolutions with constant int8 filters (int-conv-kernel.test):
writes OUT/model.mlir, its inputs and the int64 numpy reference of every
output. The channels are not multiples of 16 (padded blocks) and the
output blocks not of 4 (tiles of fewer vectors); the output pixels leave
tails of the 6-pixel tiles; there are strides, dilations, asymmetric pads,
a batch of 2, uint8 and int8 inputs with zero points at the ends of their
ranges, epilogues that dequantize (per channel), add a residual, clamp and
quantize again, and sizes large enough for both threaded forms (output
blocks per task, bands of output rows), one too small for threads and
one with weights within [-64, 64] (vpmaddubsw without VNNI); depthwise
ones (the same with 5x5 dilated and 7x7 windows); grouped ones (groups of
whole blocks and within a block);
and a float depthwise convolution quantized in its kernel's epilogue.

  int_conv_const.py OUT               writes the model and data
  int_conv_const.py --kernels M.ll S  counts the kernels of the LLVM IR
                                      (or assembly) M.ll that contain the
                                      string S
"""
import os
import re
import sys

import numpy as np

from casegen import mlir_dense as dense, mlir_tensor as ty, write_main

if sys.argv[1] == "--kernels":
    # Kernels are functions @main_kernelN (and their threads' bodies
    # @main_kernelN..omp_par), labels of the same names in assembly: count
    # the kernels that use the instruction.
    kernels, current = set(), None
    for line in open(sys.argv[2]):
        m = re.match(r"define .*@(main_kernel\d+)|(main_kernel\d+)[.:]", line)
        if m:
            current = m.group(1) or m.group(2)
            continue
        if line.startswith("}"):
            current = None
        elif current and sys.argv[3] in line:
            kernels.add(current)
    print("%s kernels: %d" % (sys.argv[3], len(kernels)))
    sys.exit(0)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)




def conv_ref(x, zp, w, strides, pads, dilations):
    """int64 NCHW convolution of x - zp (padding holds zp) and w, in
    C / w.shape[1] groups."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    groups = c // w.shape[1]
    xp = np.full((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), zp,
                 np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    xp -= zp
    oh = (xp.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            win = xp[:, :, i * dilations[0]:, j * dilations[1]:]
            win = win[:, :, :strides[0] * oh:strides[0],
                      :strides[1] * ow:strides[1]]
            gi, go = c // groups, o // groups
            for g in range(groups):
                y[:, g * go:(g + 1) * go] += np.einsum(
                    "nchw,oc->nohw", win[:, g * gi:(g + 1) * gi],
                    w[g * go:(g + 1) * go, :, i, j].astype(np.int64))
    return y


# (name, x shape, dtype, zp, O, kernel, strides, pads, dilations, epilogue)
# epilogue: None (the int32 sums), "dq" (dequantize per channel, relu),
# "dq_res_q" (dequantize, + residual input, clamp, quantize to uint8).
cases = [
    ("u8_tails", (1, 20, 9, 7), np.uint8, 255, 40, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), None),
    ("s8_strided", (2, 16, 11, 13), np.int8, -128, 24, 3, (2, 2),
     (0, 1, 2, 0), (1, 1), None),
    ("u8_dilated", (1, 33, 10, 10), np.uint8, 0, 80, 3, (1, 1), (2, 2, 2, 2),
     (2, 2), "dq"),
    ("s8_wide", (1, 64, 14, 14), np.int8, 127, 256, 1, (1, 1), (0, 0, 0, 0),
     (1, 1), "dq_res_q"),
    ("u8_bands", (1, 16, 28, 28), np.uint8, 7, 32, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), None),
    ("u8_small", (1, 8, 5, 6), np.uint8, 1, 8, 1, (1, 1), (0, 0, 0, 0),
     (1, 1), None),
    # Weights within [-64, 64] (7-bit quantization): vpmaddubsw without
    # VNNI, at the edge of int16 saturation (255 * 64 * 2 = 32640).
    ("u8_narrow", (1, 32, 7, 7), np.uint8, 255, 48, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), None),
    # Depthwise (O = C groups), IntegerDepthwiseKernel.cpp: channel and
    # pixel tails, strides, 5x5 dilated and 7x7 windows, both threaded forms.
    ("dw_u8_tails", (1, 20, 9, 7), np.uint8, 255, 20, 3, (1, 1),
     (1, 1, 1, 1), (1, 1), None),
    ("dw_s8_strided", (2, 24, 11, 13), np.int8, -128, 24, 3, (2, 2),
     (0, 1, 2, 0), (1, 1), None),
    ("dw_u8_dilated", (1, 40, 12, 10), np.uint8, 0, 40, 5, (1, 1),
     (4, 4, 4, 4), (2, 2), "dq"),
    ("dw_u8_wide", (1, 64, 30, 30), np.uint8, 3, 64, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), "dq_res_q"),
    ("dw_u8_bands", (1, 16, 56, 56), np.uint8, 128, 16, 3, (2, 1),
     (1, 1, 1, 1), (1, 1), None),
    ("dw_s8_7x7", (1, 32, 14, 14), np.int8, 127, 32, 7, (1, 1), (3, 3, 3, 3),
     (1, 1), None),
    # Grouped (gN_: N groups): groups of whole blocks (2 of 32 channels, 4
    # of 32 with 2 output blocks each), groups within a block (8 of 8
    # channels, 16 of 4: the filter block-diagonal), both threaded forms,
    # and groups of 12 channels, which stay NCHW (generic loops).
    ("g2_u8", (1, 64, 9, 9), np.uint8, 255, 64, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), None),
    ("g8_s8", (1, 64, 10, 10), np.int8, -128, 64, 3, (2, 2), (1, 0, 1, 1),
     (1, 1), "dq"),
    ("g16_u8_bands", (1, 64, 28, 28), np.uint8, 1, 64, 3, (1, 1),
     (1, 1, 1, 1), (1, 1), None),
    ("g4_u8_wide", (1, 128, 14, 14), np.uint8, 77, 128, 3, (1, 1),
     (1, 1, 1, 1), (1, 1), "dq_res_q"),
    ("g4_u8_nchw", (1, 48, 6, 6), np.uint8, 9, 48, 3, (1, 1), (1, 1, 1, 1),
     (1, 1), None),
]

args, results, body, ret_types, inputs = [], [], [], [], []
for (name, shape, dt, zp, o, k, strides, pads, dil, epi) in cases:
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max + 1, shape).astype(dt)
    x.flat[:4] = [info.min, info.max, info.max, info.min]
    groups = (o if name.startswith("dw_") else
              int(name[1:name.index("_")]) if name.startswith("g") else 1)
    if name.endswith("narrow"):
        w = rng.integers(-64, 65, (o, shape[1], k, k)).astype(np.int8)
        w[0, :4], w[1, :4] = 64, -64
        x[0, :4] = info.max
    else:
        w = rng.integers(-128, 128, (o, shape[1] // groups, k, k)).astype(
            np.int8)
        w.flat[:4] = [-128, 127, -128, 127]
    np.save(os.path.join(out, name + ".npy"), x)
    inputs.append(name)
    ref = conv_ref(x, zp, w, strides, pads, dil)
    out_shape = ref.shape
    elt = "ui8" if dt == np.uint8 else "i8"
    args.append("%%%s: %s {mlc.name = \"%s\"}" % (name, ty(shape, elt), name))
    body.append("  %%%s_w = graph.constant %s : %s" % (
        name, dense(w), ty(w.shape, "i8")))
    body.append("  %%%s_xz = graph.constant dense<%d> : %s" % (
        name, zp, ty((), elt)))
    body.append("  %%%s_wz = graph.constant dense<0> : tensor<i8>" % name)
    body.append(
        "  %%%s_acc = graph.conv2d_integer %%%s, %%%s_w, %%%s_xz, %%%s_wz "
        "{dilations = array<i64: %d, %d>, groups = %d : i64, pads = "
        "array<i64: %d, %d, %d, %d>, strides = array<i64: %d, %d>} : "
        "(%s, %s, %s, tensor<i8>) -> %s" % (
            name, name, name, name, name, dil[0], dil[1], groups, *pads,
            *strides,
            ty(shape, elt), ty(w.shape, "i8"), ty((), elt),
            ty(out_shape, "i32")))
    if epi is None:
        results.append("%%%s_acc" % name)
        ret_types.append(ty(out_shape, "i32"))
        np.save(os.path.join(out, "expected_%s.npy" % name),
                ref.astype(np.int32))
        continue
    # Powers of two: every float step below is exact, so the reference
    # rounds exactly as the kernel does.
    scale = (2.0 ** -rng.integers(8, 12, (o, 1, 1))).astype(np.float32)
    body.append("  %%%s_s = graph.constant %s : %s" % (
        name, dense(scale), ty(scale.shape, "f32")))
    body.append("  %%%s_z = graph.constant dense<0> : tensor<i32>" % name)
    fty = ty(out_shape, "f32")
    body.append(
        "  %%%s_f = graph.dequantize %%%s_acc, %%%s_s, %%%s_z : (%s, %s, "
        "tensor<i32>) -> %s" % (name, name, name, name, ty(out_shape, "i32"),
                                ty(scale.shape, "f32"), fty))
    # float32 as the kernel: the sum rounded to f32, then scaled exactly.
    f = ref.astype(np.int32).astype(np.float32) * scale
    if epi == "dq":
        body.append("  %%%s_r = graph.relu %%%s_f : %s" % (name, name, fty))
        results.append("%%%s_r" % name)
        ret_types.append(fty)
        np.save(os.path.join(out, "expected_%s.npy" % name),
                np.maximum(f, 0).astype(np.float32))
        continue
    res = (rng.integers(-64, 64, out_shape) / 4.0).astype(np.float32)
    np.save(os.path.join(out, name + "_res.npy"), res)
    inputs.append(name + "_res")
    args.append("%%%s_res: %s {mlc.name = \"%s_res\"}" % (name, fty, name))
    body.append("  %%%s_a = graph.add %%%s_f, %%%s_res : (%s, %s) -> %s" % (
        name, name, name, fty, fty, fty))
    body.append("  %%%s_lo = graph.constant dense<-6.0> : tensor<f32>" % name)
    body.append("  %%%s_m = graph.max %%%s_a, %%%s_lo : (%s, tensor<f32>) -> "
                "%s" % (name, name, name, fty, fty))
    body.append("  %%%s_qs = graph.constant dense<0.125> : tensor<f32>" % name)
    body.append("  %%%s_qz = graph.constant dense<48> : tensor<ui8>" % name)
    body.append(
        "  %%%s_q = graph.quantize %%%s_m, %%%s_qs, %%%s_qz : (%s, "
        "tensor<f32>, tensor<ui8>) -> %s" % (name, name, name, name, fty,
                                             ty(out_shape, "ui8")))
    results.append("%%%s_q" % name)
    ret_types.append(ty(out_shape, "ui8"))
    m = np.maximum(f + res, np.float32(-6.0))
    q = np.clip(np.round(m / 0.125) + 48, 0, 255).astype(np.uint8)
    np.save(os.path.join(out, "expected_%s.npy" % name), q)

# A float depthwise convolution whose result is quantized to uint8 in its
# kernel's epilogue (MobileNet's depthwise layers before an integer one):
# small integer values, so the float sums are exact.
name = "f32_dw_q"
x = rng.integers(-8, 9, (1, 24, 9, 9)).astype(np.float32)
w = rng.integers(-4, 5, (24, 1, 3, 3)).astype(np.float32)
np.save(os.path.join(out, name + ".npy"), x)
inputs.append(name)
ref = np.zeros((1, 24, 9, 9), np.int64)
xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)))
for i in range(3):
    for j in range(3):
        ref += xp[:, :, i:i + 9, j:j + 9] * w[:, 0, i, j].astype(
            np.int64)[None, :, None, None]
fty, qty = ty((1, 24, 9, 9), "f32"), ty((1, 24, 9, 9), "ui8")
args.append("%%%s: %s {mlc.name = \"%s\"}" % (name, ty(x.shape, "f32"), name))
body.append("  %%%s_w = graph.constant %s : %s" % (
    name, dense(w), ty(w.shape, "f32")))
body.append(
    "  %%%s_c = graph.conv2d %%%s, %%%s_w {dilations = array<i64: 1, 1>, "
    "groups = 24 : i64, pads = array<i64: 1, 1, 1, 1>, strides = "
    "array<i64: 1, 1>} : (%s, %s) -> %s" % (name, name, name, ty(x.shape, "f32"),
                                             ty(w.shape, "f32"), fty))
body.append("  %%%s_qs = graph.constant dense<0.25> : tensor<f32>" % name)
body.append("  %%%s_qz = graph.constant dense<100> : tensor<ui8>" % name)
body.append(
    "  %%%s_q = graph.quantize %%%s_c, %%%s_qs, %%%s_qz : (%s, tensor<f32>, "
    "tensor<ui8>) -> %s" % (name, name, name, name, fty, qty))
results.append("%%%s_q" % name)
ret_types.append(qty)
cases.append((name,))
np.save(os.path.join(out, "expected_%s.npy" % name),
        np.clip(np.round(ref / 0.25) + 100, 0, 255).astype(np.uint8))

write_main(os.path.join(out, "model.mlir"), args, body, results, ret_types,
           ["out_" + c[0] for c in cases])
with open(os.path.join(out, "args.txt"), "w") as fh:
    fh.write(" ".join("-i %s=%s" % (i, os.path.join(out, i + ".npy"))
                      for i in inputs) + " " +
             " ".join("--expect out_%s=%s" % (
                 c[0], os.path.join(out, "expected_%s.npy" % c[0]))
                 for c in cases) + "\n")
