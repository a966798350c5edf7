#!/usr/bin/python3
"""Generates the per-op numerical conformance suite in test/e2e/ops/.

For each case this writes, under test/e2e/ops/<case>/:
  model.json           a tiny graph in mlc's model.json format, weights inline
                       (or model.mlir, a graph-dialect function, for cases
                       built with Case.gop: ops that model.json cannot name)
  inputs/<name>.npy    one file per graph input
  expected/<name>.npy  one file per graph output
and the lit test test/e2e/ops/<case>.test that compiles the model, runs it
with mlc-run and compares every output with its expected values.

Expected values are independent of mlc: they come from PyTorch or numpy,
computed in float64 (integers exactly) from the float32/integer inputs and
then cast to the output dtype. The semantics followed are those of
docs/model-format.md. Pooling and convolution with asymmetric padding use a
small numpy reference, cross-checked against torch where torch can express
the same computation.

Tolerances are chosen per case: exact (rtol 0, atol 0) for integer and bool
outputs and for float ops that only move, select or compare values; the
default rtol 1e-4 / atol 1e-5 for float arithmetic.

Cases with element types model.json does not have (f64, f16, bf16, i16, i8)
are written as graph-dialect model.mlir instead (Case.mlir). numpy has no
bfloat16: bf16 tensors are float32 .npy files holding bf16 values, which
mlc-run reads and writes that way.

Cases that mlc currently gets wrong are listed in XFAIL below with the bug;
their .test files are marked `XFAIL: *`.

Run with Debian's python (it has torch and numpy):
  /usr/bin/python3 test/e2e/ops/gen_op_tests.py
The output is deterministic (fixed seeds): re-running it must leave git
clean. It removes and rewrites the case folders and .test files it owns.
"""

import math
import os
import shutil
import sys
import zlib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casegen import (DEFAULT_TOL, EXACT, NP_DTYPES, dtype_of,  # noqa: E402
                    model_json, model_mlir, np_pool, tensor_type)

MAX_ELEMENTS = 2000          # per tensor; keeps the suite small and fast

# Cases expected to fail because of a known mlc bug: case -> comment lines.
XFAIL = {}


#===------------------------------------------------------------------------===#
# Case builder and writers
#===------------------------------------------------------------------------===#

class Case:
    """One model plus its inputs, expected outputs and tolerances."""

    def __init__(self, name, desc):
        self.name = name
        self.desc = desc
        self.inputs = []    # (name, array)
        self.weights = []   # (name, array)
        self.nodes = []
        self.outputs = []   # (name, expected array, (rtol, atol))
        self.mlir_nodes = []  # (op, inputs, out, result type, attrs)
        self.types = {}     # value name -> MLIR tensor type (model.mlir)
        self.counter = 0
        self.mlir = None    # graph-dialect model text instead of model.json
        self.max_elements = MAX_ELEMENTS
        seed = zlib.crc32(name.encode())
        self.rng = np.random.default_rng(seed)
        torch.manual_seed(seed)

    # -- values ------------------------------------------------------------
    def input(self, name, array):
        # np.ascontiguousarray would turn a 0-d array into shape [1].
        array = np.array(array, order="C")
        dtype_of(array)
        self.inputs.append((name, array))
        self.types[name] = tensor_type(array)
        return name

    def weight(self, name, array):
        array = np.array(array, order="C")
        dtype_of(array)
        assert array.dtype == np.bool_ or np.all(np.isfinite(array)), \
            "inline data must be finite (JSON has no NaN/inf)"
        self.weights.append((name, array))
        self.types[name] = tensor_type(array)
        return name

    def op(self, op, inputs, out=None, **attrs):
        if out is None:
            self.counter += 1
            out = "t%d" % self.counter
        node = {"op": op, "inputs": list(inputs), "outputs": [out]}
        if attrs:
            node["attrs"] = attrs
        self.nodes.append(node)
        return out

    def gop(self, op, inputs, result, out=None, **attrs):
        """A graph dialect op `graph.<op>` written directly in model.mlir
        (generic syntax), for ops that model.json has no name for. `result`
        gives the result's dtype and shape (its values are not used: it is
        normally the node's reference value). Attributes are Python values:
        bool, int (i64), list of ints (array<i64>) or str (MLIR text)."""
        if out is None:
            self.counter += 1
            out = "t%d" % self.counter
        result = np.array(result)
        self.mlir_nodes.append((op, list(inputs), out, tensor_type(result),
                                attrs))
        self.types[out] = tensor_type(result)
        return out

    def output(self, name, expected, tol=None):
        expected = np.array(expected, order="C")
        dtype_of(expected)
        if tol is None:
            tol = DEFAULT_TOL if expected.dtype == np.float32 else EXACT
        if expected.dtype.kind != "f":
            assert tol == EXACT, "integer/bool outputs are compared exactly"
        self.outputs.append((name, expected, tol))
        return name

    # -- random data (all float data is float32) ----------------------------
    def randn(self, *shape, scale=1.0, shift=0.0):
        return (self.rng.standard_normal(shape) * scale + shift).astype(
            np.float32)

    def uniform(self, lo, hi, *shape):
        return self.rng.uniform(lo, hi, shape).astype(np.float32)

    def ints(self, lo, hi, *shape, dtype=np.int64):
        return self.rng.integers(lo, hi, shape, endpoint=True).astype(dtype)


def model_file(c):
    return ("model.mlir" if c.mlir_nodes or c.mlir is not None
            else "model.json")


def fmt_tol(v):
    if v == 0:
        return "0"
    text = "%g" % v
    if v >= 0.01:
        return text
    mant, exp = ("%e" % v).split("e")  # 1e-05 -> 1e-5
    mant = mant.rstrip("0").rstrip(".")
    return "%se%d" % (mant, int(exp))


def lit_test(c):
    d = "%S/" + c.name
    lines = ["# " + c.desc,
             "# Generated by gen_op_tests.py; expected values come from "
             "torch/numpy in float64."]
    if c.name in XFAIL:
        lines += ["#"] + ["# " + l for l in XFAIL[c.name]] + ["XFAIL: *"]
    lines.append("RUN: mlc-compile %s/%s -o %%t.so" % (d, model_file(c)))
    # One mlc-run per tolerance group, each with its own check prefix.
    groups = []
    for name, _, tol in c.outputs:
        for g in groups:
            if g[0] == tol:
                g[1].append(name)
                break
        else:
            groups.append((tol, [name]))
    checks = []
    for gi, (tol, names) in enumerate(groups):
        prefix = "CHECK" if gi == 0 else "CHECK%d" % (gi + 1)
        args = ["-i %s=%s/inputs/%s.npy" % (n, d, n) for n, _ in c.inputs]
        args += ["--expect %s=%s/expected/%s.npy" % (n, d, n) for n in names]
        args.append("--rtol %s --atol %s | FileCheck %%s%s" % (
            fmt_tol(tol[0]), fmt_tol(tol[1]),
            "" if gi == 0 else " --check-prefix=" + prefix))
        run = ["RUN: mlc-run %t.so"] + ["RUN:   " + a for a in args]
        lines += [l + " \\" for l in run[:-1]] + [run[-1]]
        kind = prefix if len(names) == 1 else prefix + "-DAG"
        for n in names:
            # No other output name in the group may end with this one, or
            # the check could match the wrong line.
            assert not any(o != n and o.endswith(n) for o in names), n
            checks.append("%s: %s: matches" % (kind, n))
    return "\n".join(lines + checks) + "\n"


def write_case(c):
    for n, a in c.inputs + c.weights:
        assert a.size < c.max_elements, (c.name, n, a.shape)
    for n, a, _ in c.outputs:
        assert a.size < c.max_elements, (c.name, n, a.shape)
    assert len(set(n for n, _ in c.inputs + c.weights)) == len(
        c.inputs + c.weights), c.name
    assert len(set(n for n, _, _ in c.outputs)) == len(c.outputs), c.name
    d = os.path.join(HERE, c.name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(os.path.join(d, "inputs"))
    os.makedirs(os.path.join(d, "expected"))
    assert not (c.nodes and c.mlir_nodes), "model.json or model.mlir"
    with open(os.path.join(d, model_file(c)), "w") as f:
        if c.mlir is not None:
            f.write(c.mlir)
        else:
            f.write(model_mlir(c, "gen_op_tests.py") if c.mlir_nodes else model_json(c))
    for n, a in c.inputs:
        np.save(os.path.join(d, "inputs", n + ".npy"), a)
    for n, a, _ in c.outputs:
        np.save(os.path.join(d, "expected", n + ".npy"), a)
    with open(os.path.join(HERE, c.name + ".test"), "w") as f:
        f.write(lit_test(c))


#===------------------------------------------------------------------------===#
# Reference helpers (float64)
#===------------------------------------------------------------------------===#

def T(a):
    """A float64 torch tensor of a float32 numpy array (exact)."""
    return torch.from_numpy(np.asarray(a, dtype=np.float64).copy())


def f32(t):
    if isinstance(t, torch.Tensor):
        t = t.detach().numpy()
    return np.asarray(t, dtype=np.float64).astype(np.float32)


def np_conv2d(x, w, b, strides, pads, dilations, groups):
    """Direct loop reference for conv2d (NCHW, OIHW, asymmetric pads)."""
    x = np.asarray(x, np.float64)
    w = np.asarray(w, np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = strides
    dh, dw = dilations
    pt, pl, pb, pr = pads
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    out = np.zeros((n, o, oh, ow))
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                acc = np.zeros(n)
                for ci in range(cg):
                    for a in range(kh):
                        for bb in range(kw):
                            r = i * sh + a * dh - pt
                            q = j * sw + bb * dw - pl
                            if 0 <= r < h and 0 <= q < wd:
                                acc += x[:, g * cg + ci, r, q] * w[oc, ci, a,
                                                                    bb]
                out[:, oc, i, j] = acc
    if b is not None:
        out += np.asarray(b, np.float64).reshape(1, -1, 1, 1)
    return out


def torch_pad_hw(x, pads, value=0.0):
    """F.pad with the format's [top, left, bottom, right] pads."""
    return F.pad(x, (pads[1], pads[3], pads[0], pads[2]), value=value)


def int_div(a, b):
    """Integer division truncating toward zero; x / 0 == 0 (mlc's spec)."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    a, b = np.broadcast_arrays(a, b)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)
    return np.where(b == 0, 0, q)


def same(a, b):
    """Asserts two float64 references agree (cross-check)."""
    np.testing.assert_allclose(np.asarray(a, np.float64),
                               np.asarray(b, np.float64), rtol=1e-10,
                               atol=1e-12)


def checked_int(values, dtype):
    values = np.asarray(values)
    info = np.iinfo(dtype)
    assert values.min() >= info.min and values.max() <= info.max
    return values.astype(dtype)


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


#===------------------------------------------------------------------------===#
# Elementwise unary
#===------------------------------------------------------------------------===#

@case
def exp_log():
    c = Case("exp_log", "exp on [-80, 20] (incl. tiny results) and log on "
             "[1e-3, 1e3] (incl. 1.0)")
    x = np.concatenate([c.uniform(-10, 10, 40),
                        np.float32([0, 1, -1, -80, -30, 15, 20, 1e-4])])
    y = np.concatenate([np.exp(c.uniform(-7, 7, 40)),
                        np.float32([1, 1e-3, 1e3, 2.718281828, 0.5, 1.0001,
                                    0.9999, 7])]).astype(np.float32)
    c.input("x", x.reshape(6, 8))
    c.input("y", y.reshape(2, 3, 8))
    c.op("exp", ["x"], out="ex")
    c.op("log", ["y"], out="ln")
    c.output("ex", f32(torch.exp(T(x.reshape(6, 8)))))
    c.output("ln", f32(torch.log(T(y.reshape(2, 3, 8)))))
    return c


@case
def sqrt_rsqrt():
    c = Case("sqrt_rsqrt", "sqrt on [0, 1e4] (incl. 0) and rsqrt on "
             "[1e-4, 1e4]")
    x = np.concatenate([c.uniform(0, 100, 26),
                        np.float32([0, 1, 4, 1e-6, 1e4, 2])])
    y = np.concatenate([np.exp(c.uniform(-9, 9, 26)),
                        np.float32([1, 4, 1e-4, 1e4, 0.25, 3])])
    x = x.astype(np.float32).reshape(4, 8)
    y = y.astype(np.float32).reshape(4, 8)
    c.input("x", x)
    c.input("y", y)
    c.op("sqrt", ["x"], out="sq")
    c.op("rsqrt", ["y"], out="rs")
    c.output("sq", f32(torch.sqrt(T(x))))
    c.output("rs", f32(torch.rsqrt(T(y))))
    return c


@case
def tanh_erf():
    c = Case("tanh_erf", "tanh on [-20, 20] and erf on [-5, 5], incl. 0 "
             "and tiny arguments")
    x = np.concatenate([c.uniform(-4, 4, 32),
                        np.float32([0, 1e-3, -1e-3, 10, -10, 20, -20, 0.5])])
    y = np.concatenate([c.uniform(-3, 3, 32),
                        np.float32([0, 1e-3, -1e-3, 5, -5, 2.5, -1, 1])])
    x = x.reshape(5, 8)
    y = y.reshape(5, 8)
    c.input("x", x)
    c.input("y", y)
    c.op("tanh", ["x"], out="th")
    c.op("erf", ["y"], out="er")
    c.output("th", f32(torch.tanh(T(x))))
    c.output("er", f32(torch.erf(T(y))))
    return c


@case
def sigmoid():
    c = Case("sigmoid", "sigmoid incl. large |x| (+-20, +-50, +-88.7, "
             "+-100) where naive forms overflow")
    x = np.concatenate([c.uniform(-8, 8, 30),
                        np.float32([0, 20, -20, 50, -50, 88.7, -88.7, 100,
                                    -100, 1e-3])])
    x = x.reshape(5, 8)
    c.input("x", x)
    c.op("sigmoid", ["x"], out="y")
    c.output("y", f32(torch.sigmoid(T(x))))
    return c


@case
def gelu():
    c = Case("gelu", "gelu with approximate=\"none\" (erf form, also the "
             "default) and approximate=\"tanh\"")
    x = np.concatenate([c.uniform(-6, 6, 44),
                        np.float32([0, -10, 10, 1e-3])]).reshape(3, 16)
    # The default form gets its own input: two identical nodes would be
    # merged (see duplicate_outputs).
    y = c.uniform(-4, 4, 2, 8)
    c.input("x", x)
    c.input("y", y)
    c.op("gelu", ["x"], out="erf_form", approximate="none")
    c.op("gelu", ["y"], out="default")
    c.op("gelu", ["x"], out="tanh_form", approximate="tanh")
    c.output("erf_form", f32(F.gelu(T(x))))
    c.output("default", f32(F.gelu(T(y))))
    c.output("tanh_form", f32(F.gelu(T(x), approximate="tanh")))
    return c


@case
def special_exp_log_sqrt():
    c = Case("special_exp_log_sqrt", "IEEE special values through exp, log, "
             "sqrt, rsqrt (inf, NaN, 0, negative arguments, overflow)")
    inf, nan = np.inf, np.nan
    xe = np.float32([inf, -inf, nan, 100, -200, 0])
    xl = np.float32([0, -1, inf, nan, 1, -0.0])
    xs = np.float32([0, -1, inf, nan, -0.0, 16])
    xr = np.float32([0, inf, -1, nan, 0.25, 16])
    for n, v in [("xe", xe), ("xl", xl), ("xs", xs), ("xr", xr)]:
        c.input(n, v)
    c.op("exp", ["xe"], out="ex")
    c.op("log", ["xl"], out="ln")
    c.op("sqrt", ["xs"], out="sq")
    c.op("rsqrt", ["xr"], out="rs")
    with np.errstate(all="ignore"):
        c.output("ex", f32(np.exp(xe.astype(np.float64))))
        c.output("ln", f32(np.log(xl.astype(np.float64))))
        c.output("sq", f32(np.sqrt(xs.astype(np.float64))))
        c.output("rs", f32(1 / np.sqrt(xr.astype(np.float64))))
    return c


@case
def special_tanh_sigmoid_erf():
    c = Case("special_tanh_sigmoid_erf", "IEEE special values through tanh, "
             "sigmoid, erf, gelu (+-inf, NaN)")
    x = np.float32([np.inf, -np.inf, np.nan, 0, 1, -1])
    # gelu(-inf) is -inf * 0 (NaN) when evaluated by its formula although
    # the limit is 0; leave it out rather than pick one.
    g = np.float32([np.inf, np.nan, 0, 1, -1, -20])
    c.input("x", x)
    c.input("g", g)
    c.op("tanh", ["x"], out="th")
    c.op("sigmoid", ["x"], out="sg")
    c.op("erf", ["x"], out="er")
    c.op("gelu", ["g"], out="ge", approximate="none")
    c.op("gelu", ["g"], out="get", approximate="tanh")
    xt, gt = T(x), T(g)
    c.output("th", f32(torch.tanh(xt)))
    c.output("sg", f32(torch.sigmoid(xt)))
    c.output("er", f32(torch.erf(xt)))
    c.output("ge", f32(F.gelu(gt)))
    c.output("get", f32(F.gelu(gt, approximate="tanh")))
    return c


@case
def unary_sign_f32():
    c = Case("unary_sign_f32", "neg, abs, relu on f32 incl. 0, -0.0 and "
             "+-inf (exact)")
    x = np.concatenate([c.randn(20, scale=3),
                        np.float32([0, -0.0, np.inf, -np.inf])]).reshape(4, 6)
    c.input("x", x)
    c.op("neg", ["x"], out="ng")
    c.op("abs", ["x"], out="ab")
    c.op("relu", ["x"], out="re")
    c.output("ng", -x, EXACT)
    c.output("ab", np.abs(x), EXACT)
    c.output("re", np.maximum(x.astype(np.float64), 0).astype(np.float32),
             EXACT)
    return c


@case
def unary_int():
    c = Case("unary_int", "neg, abs, relu on i32 and i64 incl. 0, negatives "
             "and large magnitudes")
    a = np.concatenate([c.ints(-100, 100, 12),
                        [0, -1, 1, 2**30, -2**30, 2**31 - 1, -(2**31 - 1),
                         -7]]).astype(np.int32).reshape(4, 5)
    b = np.concatenate([c.ints(-1000, 1000, 12),
                        [0, -1, 2**40, -2**40, 2**62, -2**62, 2**63 - 1,
                         -(2**63 - 1)]]).astype(np.int64).reshape(2, 10)
    c.input("a", a)
    c.input("b", b)
    for dt in ("a", "b"):
        c.op("neg", [dt], out="neg_" + dt)
        c.op("abs", [dt], out="abs_" + dt)
        c.op("relu", [dt], out="relu_" + dt)
    for n, v in [("a", a), ("b", b)]:
        v64 = v.astype(np.int64)
        c.output("neg_" + n, checked_int(-v64, v.dtype))
        c.output("abs_" + n, checked_int(np.abs(v64), v.dtype))
        c.output("relu_" + n, checked_int(np.maximum(v64, 0), v.dtype))
    return c


def np_unary_case(c, specs):
    """graph.<op> of each (op, input name, f32 input, numpy fn, tol): the
    reference is the numpy function in float64. Weight inputs (names
    starting with "k") are constant-folded by the compiler."""
    for op, name, x, fn, tol in specs:
        if name.startswith("k"):
            c.weight(name, x)
        elif name not in c.types:
            c.input(name, x)
        with np.errstate(all="ignore"):
            ref = f32(fn(x.astype(np.float64)))
        c.output(c.gop(op, [name], ref, out=name + "_" + op), ref, tol)
    return c


@case
def trig():
    c = Case("trig", "sin, cos, tan on [-10, 10], asin/acos on [-1, 1] and "
             "outside (NaN), atan incl. +-inf; a constant operand is folded")
    inf, nan = np.inf, np.nan
    x = np.concatenate([c.uniform(-10, 10, 20),
                        np.float32([0, -0.0, 1.5707964, 3.1415927, 1e-4,
                                    100, inf, nan])]).reshape(4, 7)
    u = np.concatenate([c.uniform(-1, 1, 14),
                        np.float32([1, -1, 0, 0.5, -0.5, 1.5])])
    w = np.concatenate([c.uniform(-20, 20, 10),
                        np.float32([inf, -inf, 0, 1e6])])
    k = c.uniform(-3, 3, 2, 3)
    return np_unary_case(c, [
        ("sin", "x", x, np.sin, DEFAULT_TOL),
        ("cos", "x", x, np.cos, DEFAULT_TOL),
        ("tan", "x", x, np.tan, DEFAULT_TOL),
        ("asin", "u", u, np.arcsin, DEFAULT_TOL),
        ("acos", "u", u, np.arccos, DEFAULT_TOL),
        ("atan", "w", w, np.arctan, DEFAULT_TOL),
        ("sin", "k", k, np.sin, DEFAULT_TOL)])


@case
def hyperbolic():
    c = Case("hyperbolic", "sinh/cosh incl. overflow to inf, asinh, acosh on "
             "[1, 1e4] and below 1 (NaN), atanh on (-1, 1), +-1 (+-inf) and "
             "outside (NaN); a constant operand is folded")
    inf, nan = np.inf, np.nan
    x = np.concatenate([c.uniform(-8, 8, 16),
                        np.float32([0, -0.0, 100, -100, inf, -inf, nan,
                                    1e-5])]).reshape(4, 6)
    a = np.concatenate([np.exp(c.uniform(0, 9, 12)),
                        np.float32([1, 1.0001, 0.5, -2, inf, nan])])
    t = np.concatenate([c.uniform(-0.99, 0.99, 12),
                        np.float32([0, 1, -1, 2, 0.999, nan])])
    k = c.uniform(-2, 2, 5)
    return np_unary_case(c, [
        ("sinh", "x", x, np.sinh, DEFAULT_TOL),
        ("cosh", "x", x, np.cosh, DEFAULT_TOL),
        ("asinh", "x", x, np.arcsinh, DEFAULT_TOL),
        ("acosh", "a", a, np.arccosh, DEFAULT_TOL),
        ("atanh", "t", t, np.arctanh, DEFAULT_TOL),
        ("atanh", "k", (k / 3).astype(np.float32), np.arctanh, DEFAULT_TOL),
        ("asinh", "k2", k, np.arcsinh, DEFAULT_TOL)])


@case
def rounding():
    c = Case("rounding", "floor, ceil and round (half to even) on halves, "
             "negatives, -0.0, large values, +-inf and NaN (exact)")
    x = np.concatenate([c.uniform(-50, 50, 16),
                        np.float32([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997,
                                    -0.0, 0.0, 8388607.5, 1e20, -1e20,
                                    np.inf, -np.inf, np.nan, -3.7])]
                       ).reshape(4, 8)
    k = np.float32([0.5, 1.5, -2.5, 2.4, -2.6, 7.0])
    return np_unary_case(c, [
        ("floor", "x", x, np.floor, EXACT),
        ("ceil", "x", x, np.ceil, EXACT),
        ("round", "x", x, np.round, EXACT),
        ("round", "k", k, np.round, EXACT)])


@case
def sign():
    c = Case("sign", "sign on f32 (incl. +-0.0, +-inf, NaN, tiny values), "
             "i32 and i64, and on a folded constant (exact)")
    x = np.concatenate([c.randn(10, scale=5),
                        np.float32([0, -0.0, np.inf, -np.inf, np.nan, 1e-30,
                                    -1e-30, 1e-45])]).reshape(3, 6)
    i = np.concatenate([c.ints(-100, 100, 6),
                        [0, 2**31 - 1, -2**31]]).astype(np.int32)
    j = np.array([[0, -1, 1], [2**62, -2**63, 5]], np.int64)
    k = np.float32([-2, 0, 3.5])
    for n, v in [("x", x), ("i", i), ("j", j)]:
        c.input(n, v)
    c.weight("k", k)
    for n, v in [("x", x), ("i", i), ("j", j), ("k", k)]:
        ref = np.sign(v)
        c.output(c.gop("sign", [n], ref, out="sign_" + n), ref, EXACT)
    return c


@case
def unary_math_fused():
    c = Case("unary_math_fused", "one fused elementwise kernel: "
             "round(sin(x) * 4) + floor(cosh(x)) - sign(x) * atan(x)")
    x = c.uniform(-3, 3, 6, 5)
    c.input("x", x)
    d = x.astype(np.float64)
    s = c.gop("sin", ["x"], np.sin(d).astype(np.float32))
    c.weight("four", np.array(4.0, np.float32))
    m = c.gop("mul", [s, "four"], x)
    r = c.gop("round", [m], x)
    h = c.gop("cosh", ["x"], x)
    f = c.gop("floor", [h], x)
    a = c.gop("add", [r, f], x)
    g = c.gop("sign", ["x"], x)
    t = c.gop("atan", ["x"], x)
    st = c.gop("mul", [g, t], x)
    ref = (np.round(np.sin(d) * 4) + np.floor(np.cosh(d)) -
           np.sign(d) * np.arctan(d))
    c.output(c.gop("sub", [a, st], x, out="y"), f32(ref))
    return c


@case
def logical():
    c = Case("logical", "and/or/xor/not on bool tensors, same shape, "
             "broadcast [3,4] x [4] and [3,1] x [1,4], a rank-0 constant (and "
             "its folded not), a fused chain not(a and b) or (b xor v)")
    a = c.rng.random((3, 4)) < 0.5
    b = c.rng.random((3, 4)) < 0.5
    v = np.array([True, False, True, False])
    col = c.rng.random((3, 1)) < 0.5
    row = np.array([[False, True, True, False]])
    for n, x in [("a", a), ("b", b), ("v", v), ("col", col), ("row", row)]:
        c.input(n, x)
    c.weight("t", np.array(True))
    ref = {"and": np.logical_and, "or": np.logical_or,
           "xor": np.logical_xor}
    for op, fn in ref.items():
        r = fn(a, b)
        c.output(c.gop(op, ["a", "b"], r, out="same_" + op), r)
        r = fn(a, v)
        c.output(c.gop(op, ["a", "v"], r, out="vec_" + op), r)
        r = fn(col, row)
        c.output(c.gop(op, ["col", "row"], r, out="outer_" + op), r)
    r = np.logical_not(a)
    c.output(c.gop("not", ["a"], r, out="not_a"), r)
    r = np.logical_xor(b, True)
    c.output(c.gop("xor", ["b", "t"], r, out="xor_true"), r)
    c.output(c.gop("not", ["t"], np.array(False), out="not_t"),
             np.array(False))
    ab = c.gop("and", ["a", "b"], a & b)
    n = c.gop("not", [ab], ~(a & b))
    bv = c.gop("xor", ["b", "v"], b ^ v)
    r = np.logical_or(~(a & b), b ^ v)
    c.output(c.gop("or", [n, bv], r, out="chain"), r)
    return c


#===------------------------------------------------------------------------===#
# Elementwise binary
#===------------------------------------------------------------------------===#

BINARY = ["add", "sub", "mul", "div", "max", "min"]
TORCH_BINARY = {"add": torch.add, "sub": torch.sub, "mul": torch.mul,
                "div": torch.div, "max": torch.maximum,
                "min": torch.minimum}


@case
def binary_f32():
    c = Case("binary_f32", "add/sub/mul/div/max/min on f32, same shape and "
             "broadcast [2,3,4] x [3,1]")
    x = c.randn(3, 4, scale=2)
    y = c.randn(3, 4, scale=2)
    y[0, :2] = x[0, :2]  # ties for max/min, exact zeros for sub
    y[1, 0] = 0.0
    y = np.where(y == 0, 0.75, y).astype(np.float32)  # keep div finite
    a = c.randn(2, 3, 4, scale=2)
    b = (c.uniform(0.5, 2, 3, 1) * np.float32([[1], [-1], [1]])).astype(
        np.float32)
    for n, v in [("x", x), ("y", y), ("a", a), ("b", b)]:
        c.input(n, v)
    for op in BINARY:
        c.op(op, ["x", "y"], out=op + "_same")
        c.op(op, ["a", "b"], out=op + "_bcast")
    for op in BINARY:
        tol = EXACT if op in ("max", "min") else DEFAULT_TOL
        c.output(op + "_same", f32(TORCH_BINARY[op](T(x), T(y))), tol)
        c.output(op + "_bcast", f32(TORCH_BINARY[op](T(a), T(b))), tol)
    return c


@case
def binary_f32_scalar():
    c = Case("binary_f32_scalar", "f32 binary ops with a rank-0 operand on "
             "either side, scalar x scalar, and two-sided [1,4] x [3,1] "
             "broadcast")
    a = c.randn(2, 3, scale=2)
    s = np.array(c.uniform(0.5, 2, 1)[0], np.float32)      # input, rank 0
    k = np.array(-1.25, np.float32)                        # weight, rank 0
    r = c.randn(1, 4)
    q = c.uniform(0.5, 3, 3, 1)
    c.input("a", a)
    c.input("s", s)
    c.input("r", r)
    c.input("q", q)
    c.weight("k", k)
    c.op("sub", ["a", "s"], out="a_sub_s")
    c.op("div", ["s", "a"], out="s_div_a")
    c.op("mul", ["k", "a"], out="k_mul_a")
    c.op("max", ["a", "k"], out="a_max_k")
    c.op("add", ["s", "k"], out="s_add_k")
    c.op("div", ["r", "q"], out="r_div_q")
    c.op("min", ["q", "r"], out="q_min_r")
    ta, ts, tk, tr, tq = T(a), T(s), T(k), T(r), T(q)
    c.output("a_sub_s", f32(ta - ts))
    c.output("s_div_a", f32(ts / ta))
    c.output("k_mul_a", f32(tk * ta))
    c.output("a_max_k", f32(torch.maximum(ta, tk)), EXACT)
    c.output("s_add_k", f32(ts + tk))
    c.output("r_div_q", f32(tr / tq))
    c.output("q_min_r", f32(torch.minimum(tq, tr)), EXACT)
    return c


@case
def pow_f32():
    c = Case("pow_f32", "pow with positive bases and negative, zero, "
             "fractional and integral exponents, broadcast and scalar")
    a = c.uniform(0.1, 4, 3, 4)
    a[0, 0] = 1.0
    a[1, 1] = 2.0
    e = np.float32([-1.5, 0, 0.5, 2])
    m = c.uniform(-3, 3, 3, 4)
    three = np.array(3.0, np.float32)
    c.input("a", a)
    c.input("m", m)
    c.weight("e", e)
    c.weight("three", three)
    c.op("pow", ["a", "e"], out="p_vec")
    c.op("pow", ["a", "m"], out="p_mat")
    c.op("pow", ["a", "three"], out="p_cube")
    c.output("p_vec", f32(torch.pow(T(a), T(e))))
    c.output("p_mat", f32(torch.pow(T(a), T(m))))
    c.output("p_cube", f32(torch.pow(T(a), T(three))))
    return c


@case
def pow_int():
    c = Case("pow_int", "pow on i64 and i32: exact powers, negative bases, "
             "0^0 = 1, wrap-around on overflow (as numpy), broadcast, a "
             "folded constant")
    a = np.array([[2, -2, 3, -3, 0, 1, -1, 7],
                  [2, 3, 10, -5, 0, 1, -1, 2]], np.int64)
    e = np.array([[62, 63, 40, 3, 0, 100, 7, 0],
                  [64, 1, 18, 21, 5, 0, 1000, 100]], np.int64)
    b = c.ints(-9, 9, 3, 4)
    v = np.array([0, 1, 2, 3], np.int64)
    a32 = c.ints(-20, 20, 2, 6).astype(np.int32)
    e32 = np.array([0, 1, 2, 5, 11, 31], np.int32)
    for n, t in [("a", a), ("e", e), ("b", b), ("v", v), ("a32", a32),
                 ("e32", e32)]:
        c.input(n, t)
    c.weight("k", np.array([3, -4], np.int64))
    c.weight("ke", np.array(5, np.int64))
    vals = {"a": a, "e": e, "b": b, "v": v, "a32": a32, "e32": e32,
            "k": np.array([3, -4], np.int64), "ke": np.array(5, np.int64)}
    for out, x, y in [("p_same", "a", "e"), ("p_bcast", "b", "v"),
                      ("p_i32", "a32", "e32"), ("p_fold", "k", "ke")]:
        r = np.power(vals[x], vals[y])
        c.output(c.gop("pow", [x, y], r, out=out), r)
    return c


@case
def max_min_nan():
    c = Case("max_min_nan", "max/min propagate NaN from either side; "
             "+-inf operands")
    nan, inf = np.nan, np.inf
    a = np.float32([nan, 1, nan, -inf, 2, 0.5, inf, 3])
    b = np.float32([1, nan, nan, 5, -inf, -0.5, 2, 3])
    c.input("a", a)
    c.input("b", b)
    c.op("max", ["a", "b"], out="mx")
    c.op("min", ["a", "b"], out="mn")
    c.output("mx", f32(torch.maximum(T(a), T(b))), EXACT)
    c.output("mn", f32(torch.minimum(T(a), T(b))), EXACT)
    return c


def int_binary_case(name, dtype, big):
    c = Case(name, "add/sub/mul/div/max/min on %s with negatives and "
             "broadcast [3,4] x [4] (nonzero divisors)" % dtype.__name__)
    a = c.ints(-50, 50, 3, 4)
    a[0, 0], a[0, 1], a[2, 3] = big, -big, 0
    b = np.array([-7, 3, -1, 5], np.int64)
    x = c.ints(-1000, 1000, 2, 3)
    y = c.ints(-1000, 1000, 2, 3)
    c.input("a", a.astype(dtype))
    c.input("x", x.astype(dtype))
    c.input("y", y.astype(dtype))
    c.weight("b", b.astype(dtype))
    ref = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
           "div": int_div, "max": np.maximum, "min": np.minimum}
    for op in BINARY:
        c.op(op, ["a", "b"], out=op + "_bcast")
        c.op(op, ["x", "y"], out=op + "_same")
    for op in BINARY:
        c.output(op + "_bcast", checked_int(ref[op](a, b), dtype))
        c.output(op + "_same", checked_int(ref[op](x, y), dtype))
    return c


@case
def binary_i64():
    return int_binary_case("binary_i64", np.int64, 2**40 + 3)


@case
def binary_i32():
    return int_binary_case("binary_i32", np.int32, 2**20 + 3)


@case
def div_int_zero():
    c = Case("div_int_zero", "integer div truncates toward zero for every "
             "sign combination, and x / 0 == 0, on i64 and i32")
    a = np.array([[7, -7, 7, -7, 0, 5, -5, 9, 1, -1],
                  [6, -6, 13, -13, 100, -100, 0, 2**31 - 1, 3, -3]], np.int64)
    b = np.array([2, 2, -2, -2, 3, 0, 0, 0, 1, -1], np.int64)
    c.input("a64", a)
    c.input("b64", b)
    c.input("a32", a.astype(np.int32))
    c.input("b32", b.astype(np.int32))
    c.op("div", ["a64", "b64"], out="q64")
    c.op("div", ["a32", "b32"], out="q32")
    c.output("q64", int_div(a, b))
    c.output("q32", checked_int(int_div(a, b), np.int32))
    return c


@case
def mod():
    c = Case("mod", "mod with fmod = false (numpy mod, sign of the divisor) "
             "and fmod = true (C fmod, sign of the dividend) on i64/i32 for "
             "every sign combination, x mod 0 == 0, INT_MIN mod -1, "
             "broadcast; fmod on f32 incl. inf/NaN; folded constants")
    a = np.array([[7, -7, 7, -7, 0, 5, -5, 9, 1, -1, 6, -2**63],
                  [13, -13, 100, -100, 0, 2**40, 3, -3, 8, -8, 1, -2**63]],
                 np.int64)
    b = np.array([2, 2, -2, -2, 3, 0, 0, 7, 1, -1, 3, -1], np.int64)
    v = np.array([3, -4, 5], np.int64)
    m = c.ints(-50, 50, 4, 3)
    x = np.concatenate([c.uniform(-20, 20, 8),
                        np.float32([5.5, -5.5, 5.5, -5.5, 0, np.inf, 1, np.nan,
                                    -0.0, 3])])
    y = np.concatenate([c.uniform(-5, 5, 8),
                        np.float32([2, 2, -2, -2, 3, 2, np.inf, 1, 2, 0])])
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    a32[:, 11] = -2**31
    for n, t in [("a", a), ("b", b), ("v", v), ("m", m), ("x", x), ("y", y),
                 ("a32", a32), ("b32", b32)]:
        c.input(n, t)
    c.weight("k", np.array([-9, 9, -4], np.int64))
    c.weight("kv", np.array([4, -4, 0], np.int64))

    def np_mod(p, q, fmod):
        p, q = np.broadcast_arrays(p, q)
        safe = np.where((q == 0) | (q == -1), 1, q)
        r = np.fmod(p, safe) if fmod else np.mod(p, safe)
        return np.where((q == 0) | (q == -1), 0, r).astype(p.dtype)

    # numpy itself: x mod 0 == 0 and INT_MIN mod -1 == 0.
    with np.errstate(all="ignore"):
        assert np.array_equal(np_mod(a, b, False), np.mod(a, b))
        assert np.array_equal(np_mod(a, b, True), np.fmod(a, b))
    vals = {"a": a, "b": b, "v": v, "m": m, "a32": a32, "b32": b32,
            "k": np.array([-9, 9, -4], np.int64),
            "kv": np.array([4, -4, 0], np.int64)}
    for fmod in (False, True):
        tag = "trunc" if fmod else "floor"
        for p, q in [("a", "b"), ("a32", "b32"), ("m", "v"), ("k", "kv")]:
            ref = np_mod(vals[p], vals[q], fmod)
            c.output(c.gop("mod", [p, q], ref, out="%s_%s_%s" % (tag, p, q),
                           fmod=fmod), ref)
    with np.errstate(all="ignore"):
        ref = np.fmod(x.astype(np.float64), y.astype(np.float64))
    c.output(c.gop("mod", ["x", "y"], f32(ref), out="fmod_f32", fmod=True),
             f32(ref), EXACT)
    return c


#===------------------------------------------------------------------------===#
# matmul
#===------------------------------------------------------------------------===#

@case
def matmul_2d():
    c = Case("matmul_2d", "2-D matmul with a weight operand, and M=1 / N=1 "
             "shapes")
    a = c.randn(5, 7)
    w = c.randn(7, 3)
    p = c.randn(4, 6)
    q = c.randn(6, 1)
    r = c.randn(1, 6)
    s = c.randn(6, 4)
    for n, v in [("a", a), ("p", p), ("q", q), ("r", r), ("s", s)]:
        c.input(n, v)
    c.weight("w", w)
    c.op("matmul", ["a", "w"], out="aw")
    c.op("matmul", ["p", "q"], out="pq")
    c.op("matmul", ["r", "s"], out="rs")
    c.output("aw", f32(T(a) @ T(w)))
    c.output("pq", f32(T(p) @ T(q)))
    c.output("rs", f32(T(r) @ T(s)))
    return c


@case
def matmul_3d():
    c = Case("matmul_3d", "batched matmul [3,4,5]x[3,5,2], 3-D x 2-D and "
             "2-D x 3-D")
    a = c.randn(3, 4, 5)
    b = c.randn(3, 5, 2)
    w = c.randn(5, 2)
    m = c.randn(4, 5)
    for n, v in [("a", a), ("b", b), ("m", m)]:
        c.input(n, v)
    c.weight("w", w)
    c.op("matmul", ["a", "b"], out="ab")
    c.op("matmul", ["a", "w"], out="aw")
    c.op("matmul", ["m", "b"], out="mb")
    c.output("ab", f32(torch.matmul(T(a), T(b))))
    c.output("aw", f32(torch.matmul(T(a), T(w))))
    c.output("mb", f32(torch.matmul(T(m), T(b))))
    return c


@case
def matmul_4d_bcast():
    c = Case("matmul_4d_bcast", "4-D matmul with broadcast batch dims: "
             "[2,1,3,4]x[5,4,6] and [1,3,2,4]x[2,1,4,5]")
    a = c.randn(2, 1, 3, 4)
    b = c.randn(5, 4, 6)
    p = c.randn(1, 3, 2, 4)
    q = c.randn(2, 1, 4, 5)
    for n, v in [("a", a), ("b", b), ("p", p), ("q", q)]:
        c.input(n, v)
    c.op("matmul", ["a", "b"], out="ab")
    c.op("matmul", ["p", "q"], out="pq")
    ab = torch.matmul(T(a), T(b))
    assert ab.shape == (2, 5, 3, 6)
    c.output("ab", f32(ab))
    c.output("pq", f32(torch.matmul(T(p), T(q))))
    return c


@case
def matmul_int():
    c = Case("matmul_int", "matmul on i64 (2-D, large values) and i32 "
             "(batched with broadcast)")
    a = c.ints(-50, 50, 3, 5)
    a[0, 0] = 2**36
    b = c.ints(-50, 50, 5, 4)
    p = c.ints(-20, 20, 2, 1, 3, 4).astype(np.int32)
    q = c.ints(-20, 20, 3, 4, 2).astype(np.int32)
    for n, v in [("a", a), ("b", b), ("p", p), ("q", q)]:
        c.input(n, v)
    c.op("matmul", ["a", "b"], out="ab")
    c.op("matmul", ["p", "q"], out="pq")
    c.output("ab", a @ b)
    c.output("pq", checked_int(p.astype(np.int64) @ q.astype(np.int64),
                               np.int32))
    return c


#===------------------------------------------------------------------------===#
# Register-blocked contraction kernels (ContractionKernel.cpp): shapes that
# hit their tails, packing and vector-direction choices. e2e/kernels.test
# also runs these on other targets and thread counts.
#===------------------------------------------------------------------------===#

@case
def kernel_matmul_tails():
    c = Case("kernel_matmul_tails", "matmul + bias + relu 13x20x24 with a "
             "weight (packed; row and column tails), 1x1x1, and 7x3x17 of "
             "two inputs")
    a, w, b = c.randn(13, 20), c.randn(20, 24, scale=0.3), c.randn(24)
    p, q = c.randn(1, 1), c.randn(1, 1)
    r, s = c.randn(7, 3), c.randn(3, 17)
    for n, v in [("a", a), ("p", p), ("q", q), ("r", r), ("s", s)]:
        c.input(n, v)
    c.weight("w", w)
    c.weight("b", b)
    c.op("relu", [c.op("add", [c.op("matmul", ["a", "w"]), "b"])],
         out="abr")
    c.op("matmul", ["p", "q"], out="pq")
    c.op("matmul", ["r", "s"], out="rs")
    c.output("abr", f32(torch.relu(T(a) @ T(w) + T(b))))
    c.output("pq", f32(T(p) @ T(q)))
    c.output("rs", f32(T(r) @ T(s)))
    return c


@case
def kernel_matmul_repacked():
    c = Case("kernel_matmul_repacked", "matmul 50x150x120 of two inputs: "
             "the right-hand side is large and reused by 9 row tiles, so "
             "it is packed at run time; and a transposed weight")
    c.max_elements = 20000  # packing starts at 16K elements
    a, b = c.randn(50, 150), c.randn(150, 120, scale=0.1)
    x, wt = c.randn(5, 6), c.randn(9, 6)
    for n, v in [("a", a), ("b", b), ("x", x)]:
        c.input(n, v)
    c.weight("wt", wt)
    c.op("matmul", ["a", "b"], out="ab")
    c.op("matmul", ["x", c.op("transpose", ["wt"], perm=[1, 0])],
         out="xw")
    c.output("ab", f32(T(a) @ T(b)))
    c.output("xw", f32(T(x) @ T(wt).t()))
    return c


@case
def kernel_conv_channels():
    c = Case("kernel_conv_channels", "conv 6->19 channels 3x3 on a 5x5 "
             "map with bias, a residual input and relu: the map is too "
             "narrow for the vectors, which run along the 19 output "
             "channels instead (a tail of 3); and a 1x1 map")
    x, r = c.randn(1, 6, 5, 5), c.randn(1, 19, 5, 5)
    one = c.randn(2, 3, 1, 1)
    for n, v in [("x", x), ("r", r), ("one", one)]:
        c.input(n, v)
    w, b = c.randn(19, 6, 3, 3, scale=0.3), c.randn(19)
    c.weight("w", w)
    c.weight("b", b)
    y = c.op("conv2d", ["x", "w", "b"], pads=[1, 1, 1, 1])
    c.op("relu", [c.op("add", [y, "r"])], out="res")
    ref = F.conv2d(T(x), T(w), T(b), padding=1)
    same(ref, np_conv2d(x, w, b, (1, 1), (1, 1, 1, 1), (1, 1), 1))
    c.output("res", f32(torch.relu(ref + T(r))))
    conv_case(c, one, c.randn(4, 3, 1, 1), c.randn(4), xname="one",
              out="pix")
    return c


@case
def kernel_depthwise():
    c = Case("kernel_depthwise", "depthwise 3x3 on 5 channels of 9x9: "
             "stride 2 pads 1 with bias and relu6 (max, min), and stride 1 "
             "dilation 2")
    x = c.randn(1, 5, 9, 9)
    c.input("x", x)
    w, b = c.randn(5, 1, 3, 3, scale=0.5), c.randn(5)
    c.weight("w", w)
    c.weight("b", b)
    y = c.op("conv2d", ["x", "w", "b"], strides=[2, 2], pads=[1, 1, 1, 1],
             groups=5)
    c.weight("lo", np.array(0.0, np.float32))
    c.weight("hi", np.array(6.0, np.float32))
    c.op("min", [c.op("max", [y, "lo"]), "hi"], out="s2")
    ref = F.conv2d(T(x), T(w), T(b), stride=2, padding=1, groups=5)
    c.output("s2", f32(torch.clamp(ref, 0.0, 6.0)))
    conv_case(c, x, c.randn(5, 1, 3, 3, scale=0.5), None,
              dilations=[2, 2], groups=5, out="dil")
    return c


@case
def kernel_nchwc_block():
    c = Case("kernel_nchwc_block", "a region in the blocked layout "
             "(graph-block-channels): a 3-channel stem 3->20 stride 2 "
             "(plain input), depthwise 20 with relu6, 1x1 20->24, a "
             "squeeze-excite (global avgpool, 1x1 24->8, relu, 1x1 8->24, "
             "sigmoid, mul), a residual add, max and avg pooling (padding "
             "excluded) and an output read inside the region; channels "
             "padded to 32, batch 2")
    c.max_elements = 8000
    x = c.randn(2, 3, 9, 9)
    c.input("x", x)
    tx = T(x)

    def conv(name, inp, tin, cin, cout, k, stride=1, pad=0, groups=1,
             scale=0.3):
        w = c.randn(cout, cin // groups, k, k, scale=scale)
        b = c.randn(cout, scale=0.5)
        c.weight(name + ".w", w)
        c.weight(name + ".b", b)
        attrs = {"pads": [pad] * 4} if pad else {}
        if stride != 1:
            attrs["strides"] = [stride, stride]
        if groups != 1:
            attrs["groups"] = groups
        out = c.op("conv2d", [inp, name + ".w", name + ".b"], **attrs)
        ref = F.conv2d(tin, T(w), T(b), stride=stride, padding=pad,
                       groups=groups)
        return out, ref

    c.weight("zero", np.array(0.0, np.float32))
    c.weight("six", np.array(6.0, np.float32))
    stem, r_stem = conv("stem", "x", tx, 3, 20, 3, stride=2, pad=1)
    stem, r_stem = c.op("relu", [stem]), torch.relu(r_stem)
    dw, r_dw = conv("dw", stem, r_stem, 20, 20, 3, pad=1, groups=20)
    dw = c.op("min", [c.op("max", [dw, "zero"]), "six"])
    r_dw = torch.clamp(r_dw, 0.0, 6.0)
    pw, r_pw = conv("pw", dw, r_dw, 20, 24, 1)
    c.op("relu", [pw], out="inner")
    c.output("inner", f32(torch.relu(r_pw)))
    g = c.op("global_avgpool", [pw])
    r_g = r_pw.mean(dim=(2, 3), keepdim=True)
    sq, r_sq = conv("sq", g, r_g, 24, 8, 1)
    ex, r_ex = conv("ex", c.op("relu", [sq]), torch.relu(r_sq), 8, 24, 1)
    se = c.op("mul", [pw, c.op("sigmoid", [ex])])
    r_se = r_pw * torch.sigmoid(r_ex)
    sc, r_sc = conv("sc", stem, r_stem, 20, 24, 1)
    c.op("add", [se, sc], out="block")
    r_block = r_se + r_sc
    c.output("block", f32(r_block))
    c.op("maxpool2d", ["block"], out="max", kernel=[3, 3], strides=[2, 2],
         pads=[1, 1, 1, 1])
    c.output("max", f32(F.max_pool2d(r_block, 3, 2, 1)))
    c.op("avgpool2d", ["block"], out="avg", kernel=[3, 3], strides=[1, 1],
         pads=[1, 1, 1, 1], count_include_pad=False)
    c.output("avg", f32(F.avg_pool2d(r_block, 3, 1, 1,
                                     count_include_pad=False)))
    return c


@case
def kernel_nchwc_grouped():
    c = Case("kernel_nchwc_grouped", "grouped convolutions in the blocked "
             "layout: groups of 8 channels on 40 (block-diagonal filters, "
             "channels padded to 48), groups of 16 on 32 with stride 2 "
             "(whole blocks per group), groups of 4 on 32, and groups of "
             "10 channels, which stay NCHW")
    c.max_elements = 12000
    x = c.randn(1, 40, 5, 6)
    c.input("x", x)
    tx = T(x)

    def conv(name, inp, tin, cin, cout, k, groups, stride=1, pad=0,
             bias=True):
        w = c.randn(cout, cin // groups, k, k, scale=0.3)
        c.weight(name + ".w", w)
        ins = [inp, name + ".w"]
        tb = None
        if bias:
            b = c.randn(cout, scale=0.5)
            c.weight(name + ".b", b)
            ins.append(name + ".b")
            tb = T(b)
        attrs = {"groups": groups}
        if pad:
            attrs["pads"] = [pad] * 4
        if stride != 1:
            attrs["strides"] = [stride, stride]
        out = c.op("conv2d", ins, **attrs)
        return out, F.conv2d(tin, T(w), tb, stride=stride, padding=pad,
                             groups=groups)

    a, r_a = conv("g8", "x", tx, 40, 40, 3, groups=5, pad=1)
    a, r_a = c.op("relu", [a]), torch.relu(r_a)
    b, r_b = conv("pw", a, r_a, 40, 32, 1, groups=1, bias=False)
    d, r_d = conv("g16", b, r_b, 32, 32, 3, groups=2, stride=2, pad=1)
    c.op("relu", [d], out="whole")
    c.output("whole", f32(torch.relu(r_d)))
    e, r_e = conv("g4", b, r_b, 32, 32, 3, groups=8, pad=1)
    c.op("add", [e, b], out="diag")
    c.output("diag", f32(r_e + r_b))
    f, r_f = conv("g10", "x", tx, 40, 40, 1, groups=4)
    c.op("relu", [f], out="nchw")
    c.output("nchw", f32(torch.relu(r_f)))
    return c


@case
def kernel_nchwc_concat():
    c = Case("kernel_nchwc_concat", "blocked-layout edges and concats: a "
             "16-channel input (no padding), a concat of 16 and 32 blocked "
             "channels kept blocked, a dilated 3x3 48->17 conv (a tail of "
             "1 in the second block), a concat with a 12-channel input that "
             "leaves the region, division by a constant, a batch norm on the "
             "concatenation (as a blocked scale and shift), and 1x1 maps")
    c.max_elements = 12000
    x, z = c.randn(1, 16, 6, 7), c.randn(1, 12, 6, 7)
    c.input("x", x)
    c.input("z", z)
    tx, tz = T(x), T(z)
    wa, ba = c.randn(16, 16, 3, 3, scale=0.2), c.randn(16)
    wb = c.randn(32, 16, 1, 1, scale=0.3)
    wy, by = c.randn(17, 48, 3, 3, scale=0.1), c.randn(17)
    for n, v in [("wa", wa), ("ba", ba), ("wb", wb), ("wy", wy),
                 ("by", by)]:
        c.weight(n, v)
    c.weight("two", np.array(2.0, np.float32))
    # A pre-activation batch norm on the concatenation (DenseNet's).
    bn = [c.randn(48, scale=0.5, shift=1.0), c.randn(48),
          c.randn(48), c.uniform(0.5, 2.0, 48)]
    for n, v in zip(["bn.scale", "bn.bias", "bn.mean", "bn.var"], bn):
        c.weight(n, v)
    a = c.op("conv2d", ["x", "wa", "ba"], pads=[1, 1, 1, 1])
    b = c.op("conv2d", ["x", "wb"])
    cat = c.op("concat", [a, b], axis=1)
    pre = c.op("relu", [c.op("batch_norm", [cat, "bn.scale", "bn.bias",
                                            "bn.mean", "bn.var"])])
    y = c.op("conv2d", [pre, "wy", "by"], pads=[2, 2, 2, 2],
             dilations=[2, 2])
    c.op("div", [c.op("relu", [y]), "two"], out="y")
    r_a = F.conv2d(tx, T(wa), T(ba), padding=1)
    r_b = F.conv2d(tx, T(wb))
    r_cat = torch.cat([r_a, r_b], dim=1)
    r_pre = torch.relu(F.batch_norm(r_cat, T(bn[2]), T(bn[3]), T(bn[0]),
                                    T(bn[1]), training=False, eps=1e-5))
    r_y = F.conv2d(r_pre, T(wy), T(by), padding=2, dilation=2)
    c.output("y", f32(torch.relu(r_y) / 2.0))
    c.op("concat", [a, "z"], out="mixed", axis=1)
    c.output("mixed", f32(torch.cat([r_a, tz], dim=1)))
    # 1x1 maps: a global pool, then a 1x1 conv 48->40 on it.
    g = c.op("global_avgpool", [cat])
    w1 = c.randn(40, 48, 1, 1, scale=0.2)
    c.weight("w1", w1)
    c.op("conv2d", [g, "w1"], out="pix")
    c.output("pix", f32(F.conv2d(r_cat.mean(dim=(2, 3), keepdim=True),
                                 T(w1))))
    return c


#===------------------------------------------------------------------------===#
# conv2d
#===------------------------------------------------------------------------===#

def conv_case(c, x, w, b, strides=(1, 1), pads=(0, 0, 0, 0),
              dilations=(1, 1), groups=1, out="y", xname="x", wname=None):
    """Adds one conv2d node; reference from torch (asymmetric pads via
    F.pad), cross-checked with the numpy loop reference."""
    wname = wname or out + ".w"
    c.weight(wname, w)
    ins = [xname, wname]
    if b is not None:
        c.weight(out + ".b", b)
        ins.append(out + ".b")
    attrs = {}
    if tuple(strides) != (1, 1):
        attrs["strides"] = list(strides)
    if tuple(pads) != (0, 0, 0, 0):
        attrs["pads"] = list(pads)
    if tuple(dilations) != (1, 1):
        attrs["dilations"] = list(dilations)
    if groups != 1:
        attrs["groups"] = groups
    c.op("conv2d", ins, out=out, **attrs)
    ref = F.conv2d(torch_pad_hw(T(x), pads), T(w),
                   None if b is None else T(b), stride=tuple(strides),
                   dilation=tuple(dilations), groups=groups)
    same(ref, np_conv2d(x, w, b, strides, pads, dilations, groups))
    c.output(out, f32(ref))


@case
def conv2d_bias():
    c = Case("conv2d_bias", "conv2d 3x3 with bias, symmetric pads 1, "
             "batch 2; and without pads")
    x = c.randn(2, 3, 6, 6)
    c.input("x", x)
    conv_case(c, x, c.randn(4, 3, 3, 3, scale=0.3), c.randn(4),
              pads=[1, 1, 1, 1], out="same")
    conv_case(c, x, c.randn(2, 3, 3, 3, scale=0.3), c.randn(2), out="valid")
    return c


@case
def conv2d_stride_asym():
    c = Case("conv2d_stride_asym", "conv2d without bias, stride 2, "
             "asymmetric pads [top=0,left=1,bottom=2,right=1]")
    x = c.randn(2, 2, 7, 8)
    c.input("x", x)
    conv_case(c, x, c.randn(3, 2, 3, 3, scale=0.3), None, strides=[2, 2],
              pads=[0, 1, 2, 1])
    return c


@case
def conv2d_groups_dilation():
    c = Case("conv2d_groups_dilation", "grouped conv2d (groups=2) with "
             "dilations [2,1], strides [1,2], asymmetric pads, bias")
    x = c.randn(1, 4, 9, 9)
    c.input("x", x)
    conv_case(c, x, c.randn(6, 2, 3, 3, scale=0.3), c.randn(6),
              strides=[1, 2], pads=[2, 1, 1, 0], dilations=[2, 1], groups=2)
    return c


@case
def conv2d_depthwise():
    c = Case("conv2d_depthwise", "depthwise conv2d (groups=C) with channel "
             "multiplier 2 and bias; multiplier 1, stride 2, no bias")
    x = c.randn(1, 4, 6, 6)
    c.input("x", x)
    conv_case(c, x, c.randn(8, 1, 3, 3, scale=0.5), c.randn(8),
              pads=[1, 1, 1, 1], groups=4, out="mult2")
    conv_case(c, x, c.randn(4, 1, 3, 3, scale=0.5), None, strides=[2, 2],
              pads=[1, 1, 1, 1], groups=4, out="mult1")
    return c


@case
def conv2d_rect():
    c = Case("conv2d_rect", "conv2d with a 2x3 kernel, strides [2,1], "
             "dilations [1,2], pads [0,1,1,2]; and a 1x1 conv")
    x = c.randn(2, 3, 7, 6)
    c.input("x", x)
    conv_case(c, x, c.randn(4, 3, 2, 3, scale=0.3), c.randn(4),
              strides=[2, 1], pads=[0, 1, 1, 2], dilations=[1, 2],
              out="rect")
    conv_case(c, x, c.randn(5, 3, 1, 1), None, out="pointwise")
    return c


#===------------------------------------------------------------------------===#
# Pooling
#===------------------------------------------------------------------------===#

@case
def maxpool_pad_stride():
    c = Case("maxpool_pad_stride", "maxpool2d on all-negative input (padding "
             "never wins): k3 s2 p1, overlapping k2 s1, default strides "
             "with a remainder")
    x = -c.uniform(0.1, 5, 1, 2, 7, 7)
    c.input("x", x)
    c.op("maxpool2d", ["x"], out="k3s2p1", kernel=[3, 3], strides=[2, 2],
         pads=[1, 1, 1, 1])
    c.op("maxpool2d", ["x"], out="k2s1", kernel=[2, 2], strides=[1, 1])
    c.op("maxpool2d", ["x"], out="k3x2", kernel=[3, 2])
    tx = T(x)
    r1 = F.max_pool2d(tx, 3, 2, 1)
    same(r1, np_pool(x, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], "max"))
    c.output("k3s2p1", f32(r1), EXACT)
    c.output("k2s1", f32(F.max_pool2d(tx, 2, 1)), EXACT)
    r3 = F.max_pool2d(tx, (3, 2))
    assert r3.shape == (1, 2, 2, 3)
    c.output("k3x2", f32(r3), EXACT)
    return c


@case
def maxpool_dilation():
    c = Case("maxpool_dilation", "maxpool2d kernel [2,3], strides [1,2], "
             "dilations [2,1], pads 1, on negative input")
    x = -c.uniform(0.1, 5, 2, 2, 8, 8)
    c.input("x", x)
    c.op("maxpool2d", ["x"], out="y", kernel=[2, 3], strides=[1, 2],
         pads=[1, 1, 1, 1], dilations=[2, 1])
    ref = F.max_pool2d(T(x), (2, 3), (1, 2), (1, 1), dilation=(2, 1))
    same(ref, np_pool(x, [2, 3], [1, 2], [1, 1, 1, 1], [2, 1], "max"))
    c.output("y", f32(ref), EXACT)
    return c


@case
def maxpool_asym():
    c = Case("maxpool_asym", "maxpool2d with asymmetric pads [0,1,2,0], "
             "kernel [3,2], strides [2,1], dilations [1,2] (numpy reference)")
    x = -c.uniform(0.1, 5, 1, 3, 7, 6)
    c.input("x", x)
    c.op("maxpool2d", ["x"], out="y", kernel=[3, 2], strides=[2, 1],
         pads=[0, 1, 2, 0], dilations=[1, 2])
    ref = np_pool(x, [3, 2], [2, 1], [0, 1, 2, 0], [1, 2], "max")
    same(ref, F.max_pool2d(torch_pad_hw(T(x), [0, 1, 2, 0], -math.inf),
                           (3, 2), (2, 1), dilation=(1, 2)))
    c.output("y", f32(ref), EXACT)
    return c


@case
def avgpool_include_pad():
    c = Case("avgpool_include_pad", "avgpool2d with pads and "
             "count_include_pad=true (torch semantics): k3 s2 p1 and "
             "k[2,3] s[1,2] p1")
    x = c.randn(1, 2, 7, 7)
    c.input("x", x)
    c.op("avgpool2d", ["x"], out="k3s2", kernel=[3, 3], strides=[2, 2],
         pads=[1, 1, 1, 1], count_include_pad=True)
    c.op("avgpool2d", ["x"], out="k2x3", kernel=[2, 3], strides=[1, 2],
         pads=[1, 1, 1, 1], count_include_pad=True)
    tx = T(x)
    r1 = F.avg_pool2d(tx, 3, 2, 1, count_include_pad=True)
    same(r1, np_pool(x, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], "avg", True))
    c.output("k3s2", f32(r1))
    c.output("k2x3", f32(F.avg_pool2d(tx, (2, 3), (1, 2), (1, 1),
                                      count_include_pad=True)))
    return c


@case
def avgpool_exclude_pad():
    c = Case("avgpool_exclude_pad", "avgpool2d with pads and "
             "count_include_pad=false, explicit and by default")
    x = c.randn(1, 2, 7, 7)
    c.input("x", x)
    c.op("avgpool2d", ["x"], out="k3s2", kernel=[3, 3], strides=[2, 2],
         pads=[1, 1, 1, 1], count_include_pad=False)
    c.op("avgpool2d", ["x"], out="k2x3", kernel=[2, 3], strides=[1, 2],
         pads=[1, 1, 1, 1])
    tx = T(x)
    r1 = F.avg_pool2d(tx, 3, 2, 1, count_include_pad=False)
    same(r1, np_pool(x, [3, 3], [2, 2], [1, 1, 1, 1], [1, 1], "avg", False))
    c.output("k3s2", f32(r1))
    c.output("k2x3", f32(F.avg_pool2d(tx, (2, 3), (1, 2), (1, 1),
                                      count_include_pad=False)))
    return c


@case
def avgpool_asym():
    c = Case("avgpool_asym", "avgpool2d with asymmetric pads [0,1,2,1], "
             "kernel [3,2], strides [2,1], count_include_pad true and false "
             "(numpy reference)")
    x = c.randn(2, 2, 6, 5)
    c.input("x", x)
    pads = [0, 1, 2, 1]
    c.op("avgpool2d", ["x"], out="incl", kernel=[3, 2], strides=[2, 1],
         pads=pads, count_include_pad=True)
    c.op("avgpool2d", ["x"], out="excl", kernel=[3, 2], strides=[2, 1],
         pads=pads, count_include_pad=False)
    incl = np_pool(x, [3, 2], [2, 1], pads, [1, 1], "avg", True)
    excl = np_pool(x, [3, 2], [2, 1], pads, [1, 1], "avg", False)
    # With the pads applied explicitly, torch's average counts them.
    same(incl, F.avg_pool2d(torch_pad_hw(T(x), pads), (3, 2), (2, 1)))
    ones = torch_pad_hw(torch.ones_like(T(x)), pads)
    same(excl, F.avg_pool2d(torch_pad_hw(T(x), pads), (3, 2), (2, 1)) /
         F.avg_pool2d(ones, (3, 2), (2, 1)))
    c.output("incl", f32(incl))
    c.output("excl", f32(excl))
    return c


@case
def global_avgpool():
    c = Case("global_avgpool", "global_avgpool [2,3,5,4] -> [2,3,1,1]")
    x = c.randn(2, 3, 5, 4, shift=0.5)
    c.input("x", x)
    c.op("global_avgpool", ["x"], out="y")
    c.output("y", f32(F.adaptive_avg_pool2d(T(x), 1)))
    return c


#===------------------------------------------------------------------------===#
# Normalization and softmax
#===------------------------------------------------------------------------===#

def bn_params(c, ch):
    return (c.uniform(0.5, 1.5, ch), c.randn(ch, scale=0.3),
            c.randn(ch, scale=0.5), c.uniform(0.3, 2, ch))


@case
def batch_norm_4d():
    c = Case("batch_norm_4d", "batch_norm (inference) on NCHW input with "
             "epsilon 1e-3, params as inline weights")
    x = c.randn(2, 3, 4, 5, scale=1.5, shift=0.2)
    scale, bias, mean, var = bn_params(c, 3)
    c.input("x", x)
    for n, v in [("scale", scale), ("bias", bias), ("mean", mean),
                 ("var", var)]:
        c.weight(n, v)
    c.op("batch_norm", ["x", "scale", "bias", "mean", "var"], out="y",
         epsilon=1e-3)
    c.output("y", f32(F.batch_norm(T(x), T(mean), T(var), T(scale), T(bias),
                                   training=False, eps=1e-3)))
    return c


@case
def batch_norm_2d():
    c = Case("batch_norm_2d", "batch_norm (inference) on [N, C] input with "
             "the default epsilon, params as graph inputs")
    x = c.randn(4, 6, scale=1.5)
    scale, bias, mean, var = bn_params(c, 6)
    var[0] = 1e-5  # epsilon matters here
    for n, v in [("x", x), ("scale", scale), ("bias", bias), ("mean", mean),
                 ("var", var)]:
        c.input(n, v)
    c.op("batch_norm", ["x", "scale", "bias", "mean", "var"], out="y")
    c.output("y", f32(F.batch_norm(T(x), T(mean), T(var), T(scale), T(bias),
                                   training=False, eps=1e-5)))
    return c


@case
def layer_norm_last():
    c = Case("layer_norm_last", "layer_norm over the last axis (default "
             "axis) on 3-D, and on 2-D with epsilon 1e-3")
    x = c.randn(3, 4, 8, scale=2, shift=0.5)
    y = c.randn(5, 6)
    s1, b1 = c.uniform(0.5, 1.5, 8), c.randn(8, scale=0.2)
    s2, b2 = c.uniform(0.5, 1.5, 6), c.randn(6, scale=0.2)
    c.input("x", x)
    c.input("y", y)
    for n, v in [("s1", s1), ("b1", b1), ("s2", s2), ("b2", b2)]:
        c.weight(n, v)
    c.op("layer_norm", ["x", "s1", "b1"], out="lx")
    c.op("layer_norm", ["y", "s2", "b2"], out="ly", axis=-1, epsilon=1e-3)
    c.output("lx", f32(F.layer_norm(T(x), (8,), T(s1), T(b1), 1e-5)))
    c.output("ly", f32(F.layer_norm(T(y), (6,), T(s2), T(b2), 1e-3)))
    return c


@case
def layer_norm_last2():
    c = Case("layer_norm_last2", "layer_norm over the last two axes: axis=-2 "
             "on 4-D and axis=1 on 3-D")
    x = c.randn(2, 3, 4, 5, scale=2, shift=0.5)
    y = c.randn(2, 3, 4)
    s1, b1 = c.uniform(0.5, 1.5, 4, 5), c.randn(4, 5, scale=0.2)
    s2, b2 = c.uniform(0.5, 1.5, 3, 4), c.randn(3, 4, scale=0.2)
    c.input("x", x)
    c.input("y", y)
    c.input("s2", s2)
    c.input("b2", b2)
    c.weight("s1", s1)
    c.weight("b1", b1)
    c.op("layer_norm", ["x", "s1", "b1"], out="lx", axis=-2)
    c.op("layer_norm", ["y", "s2", "b2"], out="ly", axis=1)
    c.output("lx", f32(F.layer_norm(T(x), (4, 5), T(s1), T(b1), 1e-5)))
    c.output("ly", f32(F.layer_norm(T(y), (3, 4), T(s2), T(b2), 1e-5)))
    return c


def softmax_case(name, op, fn):
    c = Case(name, "%s on 2-D axis 0, 1, -1 and on 3-D axis 1, -3 and "
             "default (-1)" % op)
    # Ops that would be identical (axis 1 and -1 on the same 2-D value) get
    # different inputs: identical nodes are merged (see duplicate_outputs).
    x = c.randn(4, 5, scale=2)
    y = c.randn(3, 5, scale=2)
    z = c.randn(2, 3, 4, scale=2)
    c.input("x", x)
    c.input("y", y)
    c.input("z", z)
    c.op(op, ["x"], out="x_ax0", axis=0)
    c.op(op, ["x"], out="x_ax1", axis=1)
    c.op(op, ["y"], out="y_axm1", axis=-1)
    c.op(op, ["z"], out="z_ax1", axis=1)
    c.op(op, ["z"], out="z_axm3", axis=-3)
    c.op(op, ["z"], out="z_dflt")
    tx, ty, tz = T(x), T(y), T(z)
    c.output("x_ax0", f32(fn(tx, dim=0)))
    c.output("x_ax1", f32(fn(tx, dim=1)))
    c.output("y_axm1", f32(fn(ty, dim=-1)))
    c.output("z_ax1", f32(fn(tz, dim=1)))
    c.output("z_axm3", f32(fn(tz, dim=-3)))
    c.output("z_dflt", f32(fn(tz, dim=-1)))
    return c


@case
def softmax_axes():
    return softmax_case("softmax_axes", "softmax", torch.softmax)


@case
def log_softmax_axes():
    return softmax_case("log_softmax_axes", "log_softmax", torch.log_softmax)


@case
def softmax_large():
    c = Case("softmax_large", "softmax/log_softmax on large-magnitude rows "
             "(+-1e3, 1e4): needs the max-subtraction to stay finite")
    x = np.float32([[1000, 1001, 999, 1002],
                    [-1000, -1001, -999, -1002],
                    [1e4, 0, -1e4, 1e4],
                    [88, 89, 90, -90]])
    c.input("x", x)
    c.op("softmax", ["x"], out="probs")
    c.op("log_softmax", ["x"], out="logp")
    c.output("probs", f32(torch.softmax(T(x), -1)))
    c.output("logp", f32(torch.log_softmax(T(x), -1)))
    return c


#===------------------------------------------------------------------------===#
# Reductions
#===------------------------------------------------------------------------===#

# (output name, input, axes or None for all, keepdims or None). No two
# variants on the same input may be the same reduction, or they would be
# merged (see duplicate_outputs).
REDUCE_VARIANTS = [
    ("ax1_keep", "x", [1], None),
    ("ax02_drop", "x", [0, 2], False),
    ("axm1_keep", "x", [-1], True),
    ("axm3m2_drop", "x", [-3, -2], False),
    ("ax20_keep", "x", [2, 0], True),
    ("all_keep", "x", None, None),
    ("all_drop", "x", [0, 1, 2], False),
    ("neg_ax1", "n", [1], False),
    ("allimpl_drop", "w", None, False),
]


def reduce_case(name, op, fn, tol):
    c = Case(name, "%s over [1], [0,2], [-1], [-3,-2], [2,0], all axes; "
             "keepdims true and false (scalar output)" % op)
    x = c.randn(2, 3, 4, scale=2, shift=0.3)
    n = -c.uniform(0.5, 3, 2, 5, 3)  # all negative: a max must not start at 0
    w = c.randn(3, 2, scale=2)
    c.input("x", x)
    c.input("n", n)
    c.input("w", w)
    for out, src, axes, keep in REDUCE_VARIANTS:
        attrs = {}
        if axes is not None:
            attrs["axes"] = axes
        if keep is not None:
            attrs["keepdims"] = keep
        c.op(op, [src], out=out, **attrs)
        t = T({"x": x, "n": n, "w": w}[src])
        dims = tuple(range(t.dim())) if axes is None else tuple(axes)
        ref = fn(t, dims, keep is not False)
        c.output(out, f32(ref), tol)
    assert c.outputs[-1][1].shape == ()
    assert c.outputs[-3][1].shape == ()
    assert c.outputs[-4][1].shape == (1, 1, 1)
    return c


@case
def reduce_sum():
    return reduce_case("reduce_sum", "reduce_sum",
                       lambda t, d, k: torch.sum(t, d, keepdim=k),
                       DEFAULT_TOL)


@case
def reduce_mean():
    return reduce_case("reduce_mean", "reduce_mean",
                       lambda t, d, k: torch.mean(t, d, keepdim=k),
                       DEFAULT_TOL)


@case
def reduce_max():
    return reduce_case("reduce_max", "reduce_max",
                       lambda t, d, k: torch.amax(t, d, keepdim=k), EXACT)


@case
def reduce_min_prod():
    c = Case("reduce_min_prod", "reduce_min (exact, NaN propagates) and "
             "reduce_prod on f32 over [1], [0,2], all axes, keepdims true "
             "and false; on i64/i32 incl. wrapping products; a fused "
             "producer and a folded constant")
    x = c.randn(2, 3, 4, scale=2, shift=0.3)
    n = c.uniform(1, 3, 2, 5, 3)  # all positive: a min must not start at 0
    p = c.uniform(0.5, 1.5, 3, 4)
    q = np.float32([[1, np.nan, 2], [3, 4, -np.inf]])
    i = c.ints(-1000, 1000, 4, 3)
    i[0] = [2**40, 2**40, 3]  # wraps modulo 2**64
    j = c.ints(-9, 9, 3, 5).astype(np.int32)
    for name, v in [("x", x), ("n", n), ("p", p), ("q", q), ("i", i),
                    ("j", j)]:
        c.input(name, v)
    c.weight("k", c.uniform(0.5, 2, 2, 3))
    vals = {"x": x, "n": n, "p": p, "q": q, "k": c.weights[0][1]}
    variants = [("x", [1], False), ("x", [0, 2], True), ("n", [0, 1, 2], False),
                ("p", [1], True), ("q", [1], False), ("k", [0], False)]
    for op, fn, tol in [("reduce_min", torch.amin, EXACT),
                        ("reduce_prod", None, DEFAULT_TOL)]:
        for src, axes, keep in variants:
            t = T(vals[src])
            if fn is None:
                ref = t
                for a in sorted(axes, reverse=True):
                    ref = torch.prod(ref, a, keepdim=keep)
            else:
                ref = fn(t, tuple(axes), keepdim=keep)
            name = "%s_%s_%s" % (op[7:], src, "".join(map(str, axes)))
            c.output(c.gop(op, [src], f32(ref), out=name, axes=axes,
                           keepdims=keep), f32(ref), tol)
    for src, v in [("i", i), ("j", j)]:
        for op, fn in [("reduce_min", np.min), ("reduce_prod", np.prod)]:
            # np.prod promotes i32 to i64; the products here fit in i32.
            ref = checked_int(fn(v, axis=1, keepdims=True), v.dtype)
            c.output(c.gop(op, [src], ref, out="%s_%s" % (op[7:], src),
                           axes=[1], keepdims=True), ref)
    # A fused elementwise producer: min over rows of |x| * 2.
    a = c.gop("abs", ["x"], x)
    c.weight("two", np.array(2, np.float32))
    m = c.gop("mul", [a, "two"], x)
    ref = np.min(np.abs(x.astype(np.float64)) * 2, axis=2)
    c.output(c.gop("reduce_min", [m], f32(ref), out="fused_min", axes=[2],
                   keepdims=False), f32(ref), EXACT)
    return c


def np_arg(fn, x, axis, keepdims, last):
    """numpy argmax/argmin (first index; the first NaN wins); the last index
    through a flip, as the ONNX reference does."""
    if last:
        r = x.shape[axis] - 1 - fn(np.flip(x, axis), axis=axis)
    else:
        r = fn(x, axis=axis)
    r = r.astype(np.int64)
    return np.expand_dims(r, axis) if keepdims else r


@case
def argmax_argmin():
    c = Case("argmax_argmin", "argmax/argmin on f32 with ties, NaN, -inf, "
             "and on i32/i64 with ties; every axis, keepdims, "
             "select_last_index; a folded constant")
    x = c.randn(3, 4, 5)
    x[0, 1, :] = 2.0                # a row of ties along axis 2
    x[1, :, 3] = -1.0               # ties along axis 1
    x[2, 2, 1] = np.nan             # NaN wins argmax and argmin
    x[2, 2, 4] = np.nan
    x[0, 0, :] = -np.inf            # all -inf: argmax is index 0 (or last)
    i = c.ints(-3, 3, 4, 6).astype(np.int32)
    j = c.ints(-2, 2, 2, 3, 4)
    for n, v in [("x", x), ("i", i), ("j", j)]:
        c.input(n, v)
    k = c.ints(0, 5, 3, 4)
    c.weight("k", k)
    vals = {"x": x, "i": i, "j": j, "k": k}
    for src, axis, keep in [("x", 2, False), ("x", 1, True), ("x", 0, False),
                            ("i", 1, False), ("i", 0, True), ("j", 2, True),
                            ("k", 1, False)]:
        for op, fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
            for last in (False, True):
                ref = np_arg(fn, vals[src], axis, keep, last)
                name = "%s%s_%s%d" % (op[3:], "_last" if last else "", src,
                                      axis)
                c.output(c.gop(op, [src], ref, out=name, axis=axis,
                               keepdims=keep, select_last_index=last), ref)
    return c


@case
def cumsum():
    c = Case("cumsum", "cumsum on f32/i32/i64 along each axis, with "
             "exclusive and reverse, integer wrap-around, a folded constant")
    x = c.randn(3, 5, scale=2)
    y = c.randn(2, 3, 4)
    i = c.ints(-100, 100, 4, 6).astype(np.int32)
    j = np.array([2**62, 2**62, 5, -7], np.int64)  # wraps at the second
    for n, v in [("x", x), ("y", y), ("i", i), ("j", j)]:
        c.input(n, v)
    c.weight("k", np.float32([1, 2, 3, 4]))

    def np_cumsum(v, axis, exclusive, reverse):
        v = np.flip(v, axis) if reverse else v
        r = np.cumsum(v, axis=axis, dtype=v.dtype if v.dtype != np.float32
                      else np.float64)
        if exclusive:
            r = np.concatenate([np.zeros_like(np.take(r, [0], axis)),
                                np.take(r, range(v.shape[axis] - 1), axis)],
                               axis)
        return np.flip(r, axis) if reverse else r
    vals = {"x": x, "y": y, "i": i, "j": j, "k": np.float32([1, 2, 3, 4])}
    for src, axis in [("x", 1), ("x", 0), ("y", 2), ("y", 1), ("i", 1),
                      ("j", 0), ("k", 0)]:
        for exclusive in (False, True):
            for reverse in (False, True):
                v = vals[src]
                with np.errstate(over="ignore"):
                    r = np_cumsum(v, axis, exclusive, reverse)
                r = f32(r) if v.dtype == np.float32 else r.astype(v.dtype)
                name = "cs_%s%d%s%s" % (src, axis, "_excl" if exclusive else "",
                                         "_rev" if reverse else "")
                c.output(c.gop("cumsum", [src], r, out=name, axis=axis,
                               exclusive=exclusive, reverse=reverse), r)
    return c


@case
def reduce_int():
    c = Case("reduce_int", "reduce_sum and reduce_max on i64 (incl. values "
             "beyond 2^32) and i32, several axes and all axes")
    x = c.ints(-100, 100, 2, 3, 4)
    x[0, 1, 2] = 2**40
    x[1, 2, 3] = -2**35
    y = c.ints(-1000, 1000, 3, 5).astype(np.int32)
    y[1, 1] = -5000
    c.input("x", x)
    c.input("y", y)
    c.op("reduce_sum", ["x"], out="sum_ax1", axes=[1], keepdims=False)
    c.op("reduce_sum", ["x"], out="sum_all", keepdims=False)
    c.op("reduce_sum", ["x"], out="sum_axm10", axes=[-1, 0])
    c.op("reduce_max", ["x"], out="max_ax0", axes=[0])
    c.op("reduce_max", ["x"], out="max_all")
    c.op("reduce_max", ["x"], out="max_axm2", axes=[-2], keepdims=False)
    c.op("reduce_sum", ["y"], out="sum32", axes=[1], keepdims=False)
    c.op("reduce_max", ["y"], out="max32", keepdims=False)
    c.output("sum_ax1", x.sum(axis=1))
    c.output("sum_all", np.array(x.sum()))
    c.output("sum_axm10", x.sum(axis=(-1, 0), keepdims=True))
    c.output("max_ax0", x.max(axis=0, keepdims=True))
    c.output("max_all", x.max(axis=(0, 1, 2), keepdims=True))
    c.output("max_axm2", x.max(axis=-2))
    c.output("sum32", checked_int(y.astype(np.int64).sum(axis=1), np.int32))
    c.output("max32", np.array(y.max()))
    # All-negative data: the max must not start from 0.
    n64 = -c.ints(1, 2**40, 2, 5)
    n32 = -c.ints(1, 1000, 5, 2).astype(np.int32)
    c.input("n64", n64)
    c.input("n32", n32)
    c.op("reduce_max", ["n64"], out="nmax_i64", axes=[1], keepdims=False)
    c.op("reduce_max", ["n32"], out="nmax_i32", axes=[0], keepdims=False)
    c.output("nmax_i64", n64.max(axis=1))
    c.output("nmax_i32", n32.max(axis=0))
    return c


#===------------------------------------------------------------------------===#
# Data movement
#===------------------------------------------------------------------------===#

@case
def reshape():
    c = Case("reshape", "reshape with -1 (first, last, middle), to rank 0, "
             "from rank 0, on f32, i64 and bool")
    x = c.randn(2, 3, 4)
    s = c.randn(1, 1)
    t = np.array(2.5, np.float32)
    i = c.ints(-9, 9, 6)
    b = np.array([[True, False], [False, True]])
    for n, v in [("x", x), ("s", s), ("t", t), ("i", i), ("b", b)]:
        c.input(n, v)
    c.op("reshape", ["x"], out="x_4m1", shape=[4, -1])
    c.op("reshape", ["x"], out="x_m1", shape=[-1])
    c.op("reshape", ["x"], out="x_m1x2x12", shape=[-1, 1, 12])
    c.op("reshape", ["s"], out="s_rank0", shape=[])
    c.op("reshape", ["t"], out="t_111", shape=[1, 1, 1])
    c.op("reshape", ["i"], out="i_3m11", shape=[3, -1, 1])
    c.op("reshape", ["b"], out="b_4", shape=[4])
    c.output("x_4m1", x.reshape(4, -1), EXACT)
    c.output("x_m1", x.reshape(-1), EXACT)
    c.output("x_m1x2x12", x.reshape(-1, 1, 12), EXACT)
    c.output("s_rank0", s.reshape(()), EXACT)
    c.output("t_111", t.reshape(1, 1, 1), EXACT)
    c.output("i_3m11", i.reshape(3, -1, 1))
    c.output("b_4", b.reshape(4))
    return c


@case
def transpose():
    c = Case("transpose", "transpose with perms [1,0,2], [2,0,1], [0,2,3,1], "
             "default (reverse) on 3-D/4-D f32 and 2-D i64")
    x = c.randn(2, 3, 4)
    y = c.randn(2, 3, 4, 5)
    i = c.ints(-99, 99, 3, 5)
    for n, v in [("x", x), ("y", y), ("i", i)]:
        c.input(n, v)
    c.op("transpose", ["x"], out="x_102", perm=[1, 0, 2])
    c.op("transpose", ["x"], out="x_201", perm=[2, 0, 1])
    c.op("transpose", ["x"], out="x_rev")
    c.op("transpose", ["y"], out="y_0231", perm=[0, 2, 3, 1])
    c.op("transpose", ["y"], out="y_rev")
    c.op("transpose", ["i"], out="i_rev")
    c.output("x_102", x.transpose(1, 0, 2), EXACT)
    c.output("x_201", x.transpose(2, 0, 1), EXACT)
    c.output("x_rev", x.transpose(), EXACT)
    c.output("y_0231", y.transpose(0, 2, 3, 1), EXACT)
    c.output("y_rev", y.transpose(), EXACT)
    c.output("i_rev", np.ascontiguousarray(i.T))
    return c


@case
def concat():
    c = Case("concat", "concat of 3 inputs (mixing graph inputs and "
             "weights) on axes 0, 1, 2 and -1 (i64), and of a single input")
    a = [c.randn(k, 3, 4) for k in (1, 2, 3)]
    b = [c.randn(2, k, 4) for k in (1, 2, 3)]
    d = [c.randn(2, 3, k) for k in (1, 2, 3)]
    e = [c.ints(-9, 9, 2, k) for k in (2, 1, 3)]
    names = {}
    for p, vals in [("a", a), ("b", b), ("d", d), ("e", e)]:
        names[p] = []
        for k, v in enumerate(vals):
            n = "%s%d" % (p, k)
            (c.weight if k == 1 else c.input)(n, v)
            names[p].append(n)
    c.op("concat", names["a"], out="cat0", axis=0)
    c.op("concat", names["b"], out="cat1", axis=1)
    c.op("concat", names["d"], out="cat2", axis=2)
    c.op("concat", names["e"], out="cat_m1", axis=-1)
    c.op("concat", ["a0"], out="single", axis=1)
    c.output("cat0", np.concatenate(a, 0), EXACT)
    c.output("cat1", np.concatenate(b, 1), EXACT)
    c.output("cat2", np.concatenate(d, 2), EXACT)
    c.output("cat_m1", np.concatenate(e, -1))
    c.output("single", a[0], EXACT)
    return c


@case
def slice_():
    c = Case("slice", "slice with negative starts/ends, clamped ends, steps "
             "> 1, partial and negative axes, on f32 and i64")
    x = c.randn(5, 6, 7)
    i = c.ints(-99, 99, 10)
    c.input("x", x)
    c.input("i", i)
    c.op("slice", ["x"], out="s_all", starts=[1, -5, 0], ends=[4, -1, 100])
    c.op("slice", ["x"], out="s_ax1", starts=[-3], ends=[100], axes=[1],
         steps=[2])
    c.op("slice", ["x"], out="s_two", starts=[0, 1], ends=[5, 7],
         axes=[-1, 0], steps=[3, 2])
    c.op("slice", ["x"], out="s_negend", starts=[2], ends=[-2], axes=[2],
         steps=[4])
    c.op("slice", ["i"], out="s_i64", starts=[1], ends=[-1], steps=[3])
    c.output("s_all", x[1:4, -5:-1, 0:100], EXACT)
    c.output("s_ax1", np.ascontiguousarray(x[:, -3:100:2]), EXACT)
    c.output("s_two", np.ascontiguousarray(x[1:7:2, :, 0:5:3]), EXACT)
    c.output("s_negend", np.ascontiguousarray(x[:, :, 2:-2:4]), EXACT)
    c.output("s_i64", i[1:-1:3])
    return c


@case
def slice_clamp():
    c = Case("slice_clamp", "slice whose starts lie before the beginning "
             "(-100 clamps to 0) and ends past the end, numpy-style")
    x = c.randn(4, 5)
    c.input("x", x)
    c.op("slice", ["x"], out="y", starts=[-100, -100], ends=[1000, 3],
         steps=[1, 2])
    c.output("y", x[-100:1000, -100:3:2], EXACT)
    return c


@case
def gather():
    c = Case("gather", "gather on axis 0 (i64 indices), axis 1 (i32, "
             "negative, 2-D indices), axis -1 (2-D indices), rank-0 indices, "
             "i64 data, weight indices")
    d0 = c.randn(5, 4)
    d1 = c.randn(3, 5)
    d2 = c.randn(2, 3, 4)
    d3 = c.ints(-99, 99, 6)
    i0 = np.array([0, -1, 2, 4, -5], np.int64)
    i1 = np.array([[4, -2], [0, 1]], np.int32)
    i2 = np.array([[3, 0, -4], [-1, 2, 1]], np.int64)
    i3 = np.array(-3, np.int32)
    for n, v in [("d0", d0), ("d1", d1), ("d2", d2), ("d3", d3), ("i0", i0),
                 ("i1", i1), ("i3", i3)]:
        c.input(n, v)
    c.weight("i2", i2)
    c.op("gather", ["d0", "i0"], out="g_ax0")
    c.op("gather", ["d1", "i1"], out="g_ax1", axis=1)
    c.op("gather", ["d2", "i2"], out="g_axm1", axis=-1)
    c.op("gather", ["d3", "i3"], out="g_rank0", axis=0)
    c.op("gather", ["d3", "i1"], out="g_i64", axis=0)
    c.output("g_ax0", np.take(d0, i0, axis=0), EXACT)
    r = np.take(d1, i1, axis=1)
    assert r.shape == (3, 2, 2)
    c.output("g_ax1", r, EXACT)
    r = np.take(d2, i2, axis=-1)
    assert r.shape == (2, 3, 2, 3)
    c.output("g_axm1", r, EXACT)
    c.output("g_rank0", np.array(d3[int(i3)]))
    c.output("g_i64", np.take(d3, i1, axis=0))
    return c


@case
def gather_elements():
    c = Case("gather_elements", "gather_elements on axis 0 and 1, i64 and "
             "i32 indices, negative indices, indices smaller than the data, "
             "out-of-range indices (clamped), 3-D, bool and i64 data, a "
             "folded constant")
    d = c.randn(3, 4)
    i0 = np.array([[0, 2, -1, 1], [2, -3, 0, 0]], np.int64)
    i1 = np.array([[3, -1, 0], [1, 1, -4], [2, 0, 3]], np.int32)
    d3 = c.ints(-99, 99, 2, 3, 4)
    i3 = c.ints(-4, 3, 2, 2, 5).astype(np.int32)
    b = c.rng.random((4, 3)) < 0.5
    ib = np.array([[1, 0, 2], [0, 0, 1]], np.int64)
    oob = np.array([[5, -7, 3, 9]], np.int64)  # clamped: 2, 0 (-7+3=-4), 2, 2
    for n, v in [("d", d), ("i0", i0), ("i1", i1), ("d3", d3), ("i3", i3),
                 ("b", b), ("ib", ib), ("oob", oob)]:
        c.input(n, v)
    k = np.arange(12, dtype=np.float32).reshape(4, 3)
    c.weight("k", k)
    c.weight("ik", np.array([[3], [-1]], np.int64))

    def ref(data, idx, axis):
        idx = np.where(idx < 0, idx + data.shape[axis], idx)
        idx = np.clip(idx, 0, data.shape[axis] - 1)
        # take_along_axis needs the indices' shape along the other dims.
        sl = tuple(slice(0, s) if a != axis else slice(None)
                   for a, s in enumerate(idx.shape))
        return np.take_along_axis(data[sl], idx, axis)
    assert np.array_equal(ref(d, i0, 0),
                          np.take_along_axis(d, np.where(i0 < 0, i0 + 3, i0),
                                             0))
    for out, data, idx, axis in [("ge_ax0", "d", "i0", 0),
                                 ("ge_ax1", "d", "i1", 1),
                                 ("ge_3d", "d3", "i3", 2),
                                 ("ge_bool", "b", "ib", 0),
                                 ("ge_clamp", "d", "oob", 0),
                                 ("ge_fold", "k", "ik", 1)]:
        vals = {"d": d, "i0": i0, "i1": i1, "d3": d3, "i3": i3, "b": b,
                "ib": ib, "oob": oob, "k": k,
                "ik": np.array([[3], [-1]], np.int64)}
        r = ref(vals[data], vals[idx], axis)
        c.output(c.gop("gather_elements", [data, idx], r, out=out, axis=axis),
                 r, EXACT)
    return c


@case
def broadcast_to():
    c = Case("broadcast_to", "broadcast_to (ONNX Expand): to a higher rank, "
             "with a smaller or lower-rank shape (result is the numpy "
             "broadcast of both), rank 0, bool and i32 data, a folded "
             "constant, and fused into an elementwise consumer")
    x = c.randn(3, 1)
    s = np.array(2.5, np.float32)
    b = np.array([[True, False, True]])
    i = c.ints(-9, 9, 1, 4).astype(np.int32)
    y = c.randn(2, 3, 5)
    for n, v in [("x", x), ("s", s), ("b", b), ("i", i), ("y", y)]:
        c.input(n, v)
    c.weight("k", np.float32([1, 2, 3]))
    for out, src, shape in [("bc_rank", "x", [2, 3, 5]),
                            ("bc_small", "x", [4]),
                            ("bc_ones", "x", [1, 1, 1, 6]),
                            ("bc_scalar", "s", [2, 2]),
                            ("bc_bool", "b", [2, 1, 1]),
                            ("bc_int", "i", [3, 1]),
                            ("bc_same", "y", [1, 3, 1]),
                            ("bc_fold", "k", [2, 3])]:
        v = {"x": x, "s": s, "b": b, "i": i, "y": y,
             "k": np.float32([1, 2, 3])}[src]
        r = v * np.ones(shape, v.dtype) if v.dtype != np.bool_ else \
            np.logical_and(v, np.ones(shape, bool))
        assert np.array_equal(r, np.broadcast_to(
            v, np.broadcast_shapes(v.shape, tuple(shape))))
        c.output(c.gop("broadcast_to", [src], r, out=out, shape=shape), r,
                 EXACT)
    e = c.gop("broadcast_to", ["x"], np.broadcast_to(x, (2, 3, 5)),
              shape=[2, 3, 5])
    r = f32(np.broadcast_to(x, (2, 3, 5)).astype(np.float64) +
            y.astype(np.float64))
    c.output(c.gop("add", [e, "y"], r, out="fused"), r)
    return c


@case
def bool_data_movement():
    c = Case("bool_data_movement", "transpose, reshape, pad (value 1 -> "
             "true), concat, slice with steps, gather and select on bool "
             "tensors")
    x = c.rng.random((3, 5)) < 0.5
    y = c.rng.random((3, 2)) < 0.5
    k = np.array([[True], [False], [True]])
    idx = np.array([4, -1, 0, 2], np.int64)
    cond = c.rng.random((3, 1)) < 0.5
    for n, v in [("x", x), ("y", y), ("idx", idx), ("cond", cond)]:
        c.input(n, v)
    c.weight("k", k)
    c.op("transpose", ["x"], out="tr")
    c.op("reshape", ["x"], out="rs", shape=[5, 3])
    c.op("pad", ["x"], out="pd", pads=[1, 0, 0, 2], value=1.0)
    c.op("concat", ["x", "k", "y"], out="cat", axis=1)
    c.op("slice", ["x"], out="sl", starts=[0, 1], ends=[3, 5], steps=[2, 2])
    c.op("gather", ["x", "idx"], out="ga", axis=1)
    c.op("select", ["cond", "y", "k"], out="se")
    c.output("tr", x.T)
    c.output("rs", x.reshape(5, 3))
    c.output("pd", np.pad(x, [(1, 0), (0, 2)], constant_values=True))
    c.output("cat", np.concatenate([x, k, y], 1))
    c.output("sl", x[0:3:2, 1:5:2])
    c.output("ga", np.take(x, idx, axis=1))
    c.output("se", np.where(cond, y, k))
    return c


@case
def gather_clamp():
    c = Case("gather_clamp", "gather with out-of-range indices, which the "
             "spec clamps (7 -> 3, -9 -> 0 on a dim of 4)")
    d = c.randn(4, 3)
    idx = np.array([7, -9, 3, -1, 4, -4], np.int64)
    c.input("d", d)
    c.input("idx", idx)
    c.op("gather", ["d", "idx"], out="y")
    fixed = np.clip(np.where(idx < 0, idx + 4, idx), 0, 3)
    c.output("y", d[fixed], EXACT)
    return c


@case
def pad():
    c = Case("pad", "constant pad on f32 (with and without value), i64 "
             "(value -3) and i32 (value 7)")
    x = c.randn(2, 3, 4)
    y = c.randn(3, 4)
    i = c.ints(-9, 9, 2, 3)
    j = c.ints(-9, 9, 4).astype(np.int32)
    for n, v in [("x", x), ("y", y), ("i", i), ("j", j)]:
        c.input(n, v)
    c.op("pad", ["x"], out="px", pads=[0, 1, 2, 1, 0, 3], value=1.5)
    c.op("pad", ["y"], out="py", pads=[1, 1, 1, 1])
    c.op("pad", ["i"], out="pi", pads=[2, 0, 0, 1], value=-3.0)
    c.op("pad", ["j"], out="pj", pads=[1, 2], value=7.0)
    c.output("px", np.pad(x, [(0, 1), (1, 0), (2, 3)], constant_values=1.5),
             EXACT)
    c.output("py", np.pad(y, 1), EXACT)
    c.output("pi", np.pad(i, [(2, 0), (0, 1)], constant_values=-3))
    c.output("pj", np.pad(j, [(1, 2)], constant_values=7))
    return c


#===------------------------------------------------------------------------===#
# cast, compare, select
#===------------------------------------------------------------------------===#

def cast_ref(x, to):
    if to == "bool":
        return x != 0
    if to in ("i32", "i64") and x.dtype.kind == "f":
        x = np.trunc(x.astype(np.float64))
    if to == "f32":
        return x.astype(np.float64).astype(np.float32)
    return checked_int(x, NP_DTYPES[to])


def cast_case(name, desc, x, targets):
    c = Case(name, desc)
    c.input("x", x)
    for to in targets:
        c.op("cast", ["x"], out="to_" + to, to=to)
        c.output("to_" + to, cast_ref(x, to), EXACT)
    return c


@case
def cast_from_f32():
    x = np.float32([[-2.7, -1.5, -0.5, -0.0, 0.0, 0.4, 1.0, 2.9],
                    [1000000.5, -123456.75, 0.999, -0.999, 65537.9,
                     -2147483520.0, 2147483520.0, 7.0]])
    return cast_case("cast_from_f32", "cast f32 -> i32/i64 (truncation "
                     "toward zero), bool (x != 0), f32", x,
                     ["i32", "i64", "bool", "f32"])


@case
def cast_from_i64():
    x = np.array([[-5, 0, 1, 7, 2**31 - 1, -2**31],
                  [16777217, 123456789, -1, 2**24, -16777219, 100]],
                 np.int64)
    return cast_case("cast_from_i64", "cast i64 -> f32 (round to nearest), "
                     "i32, bool, i64", x, ["f32", "i32", "bool", "i64"])


@case
def cast_from_i32():
    x = np.array([-5, 0, 1, 7, 2**31 - 1, -2**31, 16777217, -3], np.int32)
    return cast_case("cast_from_i32", "cast i32 -> f32, i64, bool, i32", x,
                     ["f32", "i64", "bool", "i32"])


@case
def cast_from_bool():
    x = np.array([[True, False, True], [False, False, True]])
    return cast_case("cast_from_bool", "cast bool -> f32, i64, i32, bool", x,
                     ["f32", "i64", "i32", "bool"])


@case
def cast_special_to_bool():
    x = np.float32([np.nan, np.inf, -np.inf, 1e-45, -1e-45, -0.0, 0.0, 1e-38])
    assert x[3] != 0  # the smallest subnormal
    return cast_case("cast_special_to_bool", "cast f32 -> bool of NaN, "
                     "+-inf and subnormals (all != 0, so true) and +-0 "
                     "(false)", x, ["bool"])


PREDICATES = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
              "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


@case
def compare_f32():
    c = Case("compare_f32", "all six compare predicates on f32 with "
             "broadcast, equal values, +-0, +-inf and NaN (NaN compares "
             "false except ne)")
    nan, inf = np.nan, np.inf
    b = np.float32([1.5, -2, 0, nan, inf, 3])
    a = np.float32([[1.5, -2, -0.0, 1, inf, 2],
                    [2, -3, 1e-7, nan, -inf, 3],
                    [nan, nan, nan, nan, 5, 4]])
    c.input("a", a)
    c.input("b", b)
    for p in PREDICATES:
        c.op("compare", ["a", "b"], out=p, predicate=p)
    with np.errstate(invalid="ignore"):
        for p, fn in PREDICATES.items():
            c.output(p, fn(a, b))
    return c


@case
def compare_int():
    c = Case("compare_int", "all six compare predicates on i64 with "
             "broadcast [3,4] x [3,1] and equal values; lt/eq on i32 with a "
             "scalar")
    a = c.ints(-5, 5, 3, 4)
    b = np.array([[0], [-2], [2**40]], np.int64)
    a[0, 0], a[1, 1], a[2, 2] = 0, -2, 2**40
    a[2, 3] = 2**40 + 1
    x = c.ints(-5, 5, 6).astype(np.int32)
    k = np.array(1, np.int32)
    c.input("a", a)
    c.input("b", b)
    c.input("x", x)
    c.weight("k", k)
    for p in PREDICATES:
        c.op("compare", ["a", "b"], out=p, predicate=p)
    c.op("compare", ["x", "k"], out="lt32", predicate="lt")
    c.op("compare", ["k", "x"], out="eq32", predicate="eq")
    for p, fn in PREDICATES.items():
        c.output(p, fn(a, b))
    c.output("lt32", x < k)
    c.output("eq32", k == x)
    return c


@case
def select_bcast():
    c = Case("select_bcast", "select with 3-way broadcasting (cond [2,1,4], "
             "a [3,1], b rank 0) and on i64 with a bool weight condition")
    cond = c.rng.random((2, 1, 4)) < 0.5
    a = c.randn(3, 1)
    b = np.array(-7.5, np.float32)
    m = np.array([True, False, False, True])
    p = c.ints(-9, 9, 3, 4)
    q = c.ints(100, 109, 3, 1)
    c.input("cond", cond)
    c.input("a", a)
    c.weight("b", b)
    c.weight("m", m)
    c.input("p", p)
    c.input("q", q)
    c.op("select", ["cond", "a", "b"], out="sf")
    c.op("select", ["m", "p", "q"], out="si")
    r = np.where(cond, a, b)
    assert r.shape == (2, 3, 4)
    c.output("sf", r.astype(np.float32), EXACT)
    c.output("si", np.where(m, p, q))
    return c


#===------------------------------------------------------------------------===#
# Multi-op graphs
#===------------------------------------------------------------------------===#

@case
def residual_block():
    c = Case("residual_block", "ResNet basic block: conv-bn-relu-conv-bn, "
             "identity shortcut, relu (torch modules, eval mode)")
    ch = 4
    convs = [nn.Conv2d(ch, ch, 3, padding=1, bias=False) for _ in range(2)]
    bns = [nn.BatchNorm2d(ch) for _ in range(2)]
    with torch.no_grad():
        for bn in bns:
            bn.weight.copy_(1 + 0.3 * torch.randn(ch))
            bn.bias.copy_(0.2 * torch.randn(ch))
            bn.running_mean.copy_(0.3 * torch.randn(ch))
            bn.running_var.copy_(0.5 + torch.rand(ch))
    for m in convs + bns:
        m.double().eval()
    x = c.randn(1, ch, 6, 6)
    c.input("x", x)
    h = "x"
    for k in range(2):
        w = c.weight("conv%d.w" % k, f32(convs[k].weight))
        convs[k].weight.data = T(f32(convs[k].weight))
        ps = []
        for p in ("weight", "bias", "running_mean", "running_var"):
            v = f32(getattr(bns[k], p))
            getattr(bns[k], p).data = T(v)
            ps.append(c.weight("bn%d.%s" % (k, p), v))
        h = c.op("conv2d", [h, w], pads=[1, 1, 1, 1])
        h = c.op("batch_norm", [h] + ps)
        if k == 0:
            h = c.op("relu", [h])
    h = c.op("add", [h, "x"])
    c.op("relu", [h], out="y")
    with torch.no_grad():
        tx = T(x)
        t = F.relu(bns[0](convs[0](tx)))
        ref = F.relu(bns[1](convs[1](t)) + tx)
    c.output("y", f32(ref))
    return c


@case
def attention_bcast():
    c = Case("attention_bcast", "attention softmax(mask(q@k^T*scale))@v with "
             "broadcast batch dims (k, v shared across the batch) and a "
             "bool mask weight")
    q = c.randn(2, 3, 5, 4)
    k = c.randn(3, 6, 4)
    v = c.randn(1, 3, 6, 4)
    mask = np.tril(np.ones((5, 6), bool), 1)
    c.input("q", q)
    c.input("k", k)
    c.input("v", v)
    c.weight("scale", np.array(0.5, np.float32))
    c.weight("mask", mask)
    c.weight("neg", np.array(-1e9, np.float32))
    kt = c.op("transpose", ["k"], perm=[0, 2, 1])
    s = c.op("matmul", ["q", kt])
    s = c.op("mul", [s, "scale"])
    s = c.op("select", ["mask", s, "neg"])
    p = c.op("softmax", [s], out="probs")
    c.op("matmul", [p, "v"], out="ctx")
    sc = torch.matmul(T(q), T(k).transpose(1, 2)) * 0.5
    sc = torch.where(torch.from_numpy(mask), sc,
                     torch.tensor(-1e9, dtype=torch.float64))
    pr = torch.softmax(sc, -1)
    ctx = torch.matmul(pr, T(v))
    assert ctx.shape == (2, 3, 5, 4)
    c.output("probs", f32(pr))
    c.output("ctx", f32(ctx))
    return c


@case
def mlp_ln_gelu():
    c = Case("mlp_ln_gelu", "pre-LN MLP block: layer_norm, matmul+bias, "
             "gelu(tanh), matmul+bias, residual add")
    x = c.randn(2, 5, 8)
    c.input("x", x)
    ln_s, ln_b = c.uniform(0.5, 1.5, 8), c.randn(8, scale=0.2)
    w1, b1 = c.randn(8, 16, scale=0.35), c.randn(16, scale=0.1)
    w2, b2 = c.randn(16, 8, scale=0.25), c.randn(8, scale=0.1)
    for n, v in [("ln.s", ln_s), ("ln.b", ln_b), ("w1", w1), ("b1", b1),
                 ("w2", w2), ("b2", b2)]:
        c.weight(n, v)
    h = c.op("layer_norm", ["x", "ln.s", "ln.b"])
    h = c.op("add", [c.op("matmul", [h, "w1"]), "b1"])
    h = c.op("gelu", [h], approximate="tanh")
    h = c.op("add", [c.op("matmul", [h, "w2"]), "b2"])
    c.op("add", ["x", h], out="y")
    tx = T(x)
    r = F.layer_norm(tx, (8,), T(ln_s), T(ln_b), 1e-5)
    r = F.gelu(r @ T(w1) + T(b1), approximate="tanh")
    c.output("y", f32(tx + r @ T(w2) + T(b2)))
    return c


@case
def embedding_pool():
    c = Case("embedding_pool", "embedding lookup (gather from a weight "
             "table with i64 ids), layer_norm, mean over the sequence, "
             "linear, log_softmax")
    table = c.randn(10, 6)
    ids = np.array([[1, 4, 9, 0, 4], [7, 7, 2, 3, -1]], np.int64)
    w, b = c.randn(6, 3), c.randn(3, scale=0.1)
    s, bb = c.uniform(0.5, 1.5, 6), c.randn(6, scale=0.1)
    c.input("ids", ids)
    for n, v in [("table", table), ("w", w), ("b", b), ("ln.s", s),
                 ("ln.b", bb)]:
        c.weight(n, v)
    h = c.op("gather", ["table", "ids"])
    h = c.op("layer_norm", [h, "ln.s", "ln.b"])
    h = c.op("reduce_mean", [h], axes=[1], keepdims=False)
    h = c.op("add", [c.op("matmul", [h, "w"]), "b"])
    c.op("log_softmax", [h], out="y")
    e = T(table)[torch.from_numpy(np.where(ids < 0, ids + 10, ids))]
    e = F.layer_norm(e, (6,), T(s), T(bb), 1e-5).mean(1)
    c.output("y", f32(torch.log_softmax(e @ T(w) + T(b), -1)))
    return c


@case
def cnn_head():
    c = Case("cnn_head", "conv-relu-maxpool-conv1x1-global_avgpool-reshape-"
             "matmul-softmax")
    x = c.randn(1, 2, 8, 8)
    w1, b1 = c.randn(4, 2, 3, 3, scale=0.4), c.randn(4, scale=0.1)
    w2 = c.randn(6, 4, 1, 1, scale=0.5)
    fc = c.randn(6, 3)
    c.input("x", x)
    for n, v in [("w1", w1), ("b1", b1), ("w2", w2), ("fc", fc)]:
        c.weight(n, v)
    h = c.op("conv2d", ["x", "w1", "b1"], pads=[1, 1, 1, 1])
    h = c.op("relu", [h])
    h = c.op("maxpool2d", [h], kernel=[2, 2])
    h = c.op("conv2d", [h, "w2"])
    h = c.op("global_avgpool", [h])
    h = c.op("reshape", [h], shape=[1, -1])
    h = c.op("matmul", [h, "fc"])
    c.op("softmax", [h], out="y")
    r = F.relu(F.conv2d(T(x), T(w1), T(b1), padding=1))
    r = F.conv2d(F.max_pool2d(r, 2), T(w2))
    r = F.adaptive_avg_pool2d(r, 1).reshape(1, -1) @ T(fc)
    c.output("y", f32(torch.softmax(r, -1)))
    return c


@case
def identity_outputs():
    c = Case("identity_outputs", "a graph without nodes whose outputs are "
             "an input and a weight")
    x = c.randn(2, 3)
    w = c.ints(-9, 9, 4).astype(np.int32)
    c.input("x", x)
    c.weight("w", w)
    c.output("x", x, EXACT)
    c.output("w", w)
    return c


@case
def vector_tails():
    c = Case("vector_tails", "odd, larger sizes (37, 13, 11...) that leave "
             "vector remainders: exp, softmax, reductions, matmul, conv2d")
    x = c.randn(7, 37, scale=2)
    a = c.randn(13, 37)
    w = c.randn(37, 11)
    img = c.randn(1, 9, 11, 13)
    k = c.randn(10, 9, 3, 3, scale=0.2)
    for n, v in [("x", x), ("a", a), ("img", img)]:
        c.input(n, v)
    c.weight("w", w)
    c.weight("k", k)
    c.op("exp", ["x"], out="ex")
    c.op("softmax", ["x"], out="sm")
    c.op("reduce_sum", ["x"], out="rsum", axes=[1], keepdims=False)
    c.op("reduce_max", ["x"], out="rmax", axes=[0], keepdims=False)
    c.op("matmul", ["a", "w"], out="mm")
    c.op("conv2d", ["img", "k"], out="cv", pads=[1, 1, 1, 1])
    tx = T(x)
    c.output("ex", f32(torch.exp(tx)))
    c.output("sm", f32(torch.softmax(tx, -1)))
    c.output("rsum", f32(tx.sum(1)))
    c.output("rmax", f32(tx.amax(0)), EXACT)
    c.output("mm", f32(T(a) @ T(w)))
    ref = F.conv2d(T(img), T(k), padding=1)
    same(ref, np_conv2d(img, k, None, [1, 1], [1, 1, 1, 1], [1, 1], 1))
    c.output("cv", f32(ref))
    return c


@case
def rank0_rank1():
    c = Case("rank0_rank1", "ops on rank-0 and rank-1 tensors: unary, "
             "binary, compare, select, cast on scalars; softmax, reductions, "
             "transpose and a broadcast add on a 1-D vector")
    s = np.array(0.75, np.float32)
    t = np.array(-2.5, np.float32)
    i = np.array(-7, np.int64)
    v = c.randn(7, scale=2)
    for n, a in [("s", s), ("t", t), ("i", i), ("v", v)]:
        c.input(n, a)
    c.op("exp", ["s"], out="exp_s")
    c.op("neg", ["i"], out="neg_i")
    c.op("mul", ["s", "t"], out="mul_st")
    cmp = c.op("compare", ["s", "t"], out="gt_st", predicate="gt")
    c.op("select", [cmp, "t", "s"], out="sel_st")
    c.op("cast", ["t"], out="cast_t", to="i32")
    c.op("softmax", ["v"], out="sm_v")
    c.op("reduce_sum", ["v"], out="sum_v", keepdims=False)
    c.op("reduce_max", ["v"], out="max_v")
    c.op("transpose", ["v"], out="tr_v")
    c.op("add", ["v", "s"], out="add_vs")
    ts, tt, tv = T(s), T(t), T(v)
    c.output("exp_s", f32(torch.exp(ts)))
    c.output("neg_i", -i)
    c.output("mul_st", f32(ts * tt))
    c.output("gt_st", np.array(s > t))
    c.output("sel_st", np.array(t, np.float32), EXACT)
    c.output("cast_t", np.array(-2, np.int32))
    c.output("sm_v", f32(torch.softmax(tv, 0)))
    c.output("sum_v", f32(tv.sum()))
    c.output("max_v", f32(tv.amax().reshape(1)), EXACT)
    c.output("tr_v", v, EXACT)
    c.output("add_vs", f32(tv + ts))
    return c


@case
def duplicate_outputs():
    c = Case("duplicate_outputs", "two identical nodes (merged by CSE) "
             "feeding two graph outputs")
    x = c.randn(2, 3)
    c.input("x", x)
    c.op("relu", ["x"], out="a")
    c.op("relu", ["x"], out="b")
    r = np.maximum(x, 0).astype(np.float32)
    c.output("a", r, EXACT)
    c.output("b", r, EXACT)
    return c


@case
def fanout():
    c = Case("fanout", "one value used by several nodes and returned while "
             "also consumed; an input returned alongside; x op x")
    x = c.randn(3, 4)
    c.input("x", x)
    r = c.op("relu", ["x"], out="r")
    c.op("add", [r, r], out="twice")
    c.op("mul", ["x", "x"], out="sq")
    c.op("sub", [r, "x"], out="negpart")
    tx = T(x)
    tr = F.relu(tx)
    c.output("r", f32(tr), EXACT)
    c.output("twice", f32(tr + tr))
    c.output("sq", f32(tx * tx))
    c.output("negpart", f32(tr - tx))
    c.output("x", x, EXACT)
    return c


#===------------------------------------------------------------------------===#

#===------------------------------------------------------------------------===#
# Element types beyond model.json: f64, f16, bf16, i16, i8 (model.mlir)
#===------------------------------------------------------------------------===#

MLIR_ELT = {"f32": "f32", "f64": "f64", "f16": "f16", "bf16": "bf16",
            "i64": "i64", "i32": "i32", "i16": "i16", "i8": "i8",
            "bool": "i1"}
FLOATS = ("f32", "f64", "f16", "bf16")
ALL_DTYPES = ("f32", "f64", "f16", "bf16", "i8", "i16", "i32", "i64", "bool")
BF16_MAX = (2 - 2.0**-7) * 2.0**127


def bf16_round(x):
    """Correctly rounded float64 -> bfloat16 (nearest even), as float32
    (bf16 .npy files are float32)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)
        r = np.ldexp(np.rint(np.ldexp(m, 8)), e - 8)
        sub = np.ldexp(np.rint(np.ldexp(x, 133)), -133)
        r = np.where(np.abs(x) < 2.0**-126, sub, r)
        r = np.where(np.abs(r) > BF16_MAX, np.copysign(np.inf, x), r)
        r = np.where(np.isfinite(x), r, x)
    return r.astype(np.float32)


def as_dtype(x, dt):
    """float64/int values -> the array mlc-run reads for dtype `dt`."""
    if dt == "bf16":
        return bf16_round(x)
    return np.asarray(x).astype(NP_DTYPES[dt])


def ttype(shape, dt):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), MLIR_ELT[dt])


class Mlir:
    """A graph-dialect @main built alongside a Case: values are
    (ssa name, shape, dtype)."""

    def __init__(self, c):
        self.c, self.args, self.lines, self.results, self.n = c, [], [], [], 0

    def arg(self, name, values, dt):
        a = as_dtype(values, dt)
        self.c.input(name, a)
        self.args.append((name, a.shape, dt))
        return ("%" + name, a.shape, dt)

    def emit(self, text, shape, dt):
        self.n += 1
        v = "%%v%d" % self.n
        self.lines.append("  %s = %s" % (v, text))
        return (v, tuple(shape), dt)

    def const(self, values, dt):
        a = np.asarray(as_dtype(values, dt))
        if dt == "bool":
            items = ["true" if v else "false" for v in a.reshape(-1)]
        elif dt in FLOATS:
            # MLIR float literals need a '.': 1e+300 -> 1.0e+300.
            items = [repr(float(v)) if "." in repr(float(v)) else
                     repr(float(v)).replace("e", ".0e")
                     for v in a.reshape(-1)]
        else:
            items = [str(int(v)) for v in a.reshape(-1)]
        flat = "[%s]" % ", ".join(items)
        shaped = self.emit("graph.constant dense<%s> : %s" % (
            flat, ttype((a.size,), dt)), (a.size,), dt)
        return self.reshape(shaped, a.shape), a

    def reshape(self, v, shape):
        if tuple(v[1]) == tuple(shape):
            return v
        return self.emit("graph.reshape %s {shape = array<i64%s>} : (%s) -> %s"
                         % (v[0], "".join(": %d" % d if i == 0 else ", %d" % d
                                          for i, d in enumerate(shape)),
                            ttype(v[1], v[2]), ttype(shape, v[2])),
                         shape, v[2])

    def unary(self, op, v):
        return self.emit("graph.%s %s : %s" % (op, v[0], ttype(v[1], v[2])),
                         v[1], v[2])

    def binary(self, op, a, b, dt=None):
        shape = np.broadcast_shapes(a[1], b[1])
        dt = dt or a[2]
        return self.emit("graph.%s %s, %s : (%s, %s) -> %s" % (
            op, a[0], b[0], ttype(a[1], a[2]), ttype(b[1], b[2]),
            ttype(shape, dt)), shape, dt)

    def compare(self, pred, a, b):
        shape = np.broadcast_shapes(a[1], b[1])
        return self.emit("graph.compare %s, %s, %s : (%s, %s) -> %s" % (
            pred, a[0], b[0], ttype(a[1], a[2]), ttype(b[1], b[2]),
            ttype(shape, "bool")), shape, "bool")

    def cast(self, v, dt):
        return self.emit("graph.cast %s {to = %s} : (%s) -> %s" % (
            v[0], MLIR_ELT[dt], ttype(v[1], v[2]), ttype(v[1], dt)), v[1], dt)

    def reduce(self, op, v, axes, keepdims=False):
        shape = [d for i, d in enumerate(v[1]) if i not in axes or keepdims]
        shape = [1 if i in axes else d for i, d in enumerate(v[1])] \
            if keepdims else shape
        return self.emit(
            "graph.%s %s {axes = array<i64: %s>, keepdims = %s} : (%s) -> %s"
            % (op, v[0], ", ".join(map(str, axes)),
               "true" if keepdims else "false", ttype(v[1], v[2]),
               ttype(shape, v[2])), shape, v[2])

    def matmul(self, a, b):
        shape = a[1][:-1] + b[1][-1:]
        return self.emit("graph.matmul %s, %s : (%s, %s) -> %s" % (
            a[0], b[0], ttype(a[1], a[2]), ttype(b[1], b[2]),
            ttype(shape, a[2])), shape, a[2])

    def softmax(self, v, axis):
        return self.emit("graph.softmax %s {axis = %d : i64} : %s" % (
            v[0], axis, ttype(v[1], v[2])), v[1], v[2])

    def pad(self, v, pads, value):
        rank = len(v[1])
        shape = [d + pads[i] + pads[rank + i] for i, d in enumerate(v[1])]
        return self.emit(
            "graph.pad %s {pads = array<i64: %s>, value = %r : f64} : "
            "(%s) -> %s" % (v[0], ", ".join(map(str, pads)), float(value),
                            ttype(v[1], v[2]), ttype(shape, v[2])),
            shape, v[2])

    def output(self, name, v, expected, tol):
        expected = np.asarray(expected)
        if v[2] == "bf16":
            assert expected.dtype == np.float32
        else:
            assert expected.dtype == NP_DTYPES[v[2]], (name, expected.dtype)
        assert tuple(expected.shape) == tuple(v[1]), (name, expected.shape)
        self.c.output(name, expected, tol)
        self.results.append((name, v))

    def finish(self):
        args = ", ".join('%%%s: %s {mlc.name = "%s"}' % (n, ttype(s, d), n)
                         for n, s, d in self.args)
        res = ", ".join('%s {mlc.name = "%s"}' % (ttype(v[1], v[2]), n)
                        for n, v in self.results)
        ret = "  return %s : %s" % (
            ", ".join(v[0] for _, v in self.results),
            ", ".join(ttype(v[1], v[2]) for _, v in self.results))
        self.c.mlir = ("// Generated by gen_op_tests.py.\n"
                       "func.func @main(%s) -> (%s) {\n%s\n%s\n}\n" % (
                           args, res, "\n".join(self.lines), ret))
        return self.c


def cast_expected(x, src, dst):
    """Reference cast of the source values `x` (as mlc-run holds them; bf16
    as float32): float -> int truncates (values are in range), int -> int
    wraps, to float rounds the exact value once to nearest even."""
    if dst == "bool":
        return x != 0
    # Exact for every test value but +-(2**63 - 1), whose one rounding to
    # float64 (2**63) is also the correctly rounded result in every type.
    exact = x.astype(np.float64)
    if dst in FLOATS:
        with np.errstate(over="ignore"):
            return as_dtype(exact, dst)
    if src in FLOATS:
        t = np.trunc(exact)
        assert np.all(np.abs(t) < 128), "float -> int must stay in range"
        return t.astype(np.int64).astype(NP_DTYPES[dst])
    return x.astype(np.int64 if src == "bool" else x.dtype).astype(
        NP_DTYPES[dst])


CAST_FLOAT_VALUES = [
    -100.75, -2.5, -1.5, -0.5, -0.0, 0.0, 0.3, 0.5, 1.5, 2.7, 99.9, 127.0,
    -77.7777777777, 3.141592653589793,
    1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11,
    # Just above a bf16 / f16 / f32 tie: rounding through f32 to nearest
    # would land on the tie and round to even, i.e. down (wrong).
    1 + 2**-8 + 2**-40, 1 + 2**-11 + 2**-40, 1 + 2**-24 + 2**-50,
    -(1 + 2**-8 + 2**-40)]
CAST_INT_VALUES = {
    "i8": [-128, -100, -7, -1, 0, 1, 5, 100, 127, 64, 33, -33],
    "i16": [-32768, -300, -129, -1, 0, 1, 255, 300, 32767, 2049, 2051, 129],
    "i32": [-2**31, -70000, -1, 0, 1, 65535, 2**24 + 1, 2**31 - 1, 300,
            -129, 65519, 65520],
    "i64": [-2**63, -2**40 - 1, -1, 0, 1, 2**24 + 1, 2**63 - 1, 65519, -129,
            300, 2**40 + 2**32 + 1, 257],
}


def dtype_cast_case(src):
    c = Case("dtype_cast_from_%s" % src,
             "cast %s -> f32, f64, f16, bf16, i8, i16, i32, i64, bool: "
             "float -> int truncates, int -> int wraps, to float rounds once "
             "to nearest even (model.mlir)" % src)
    m = Mlir(c)
    if src in FLOATS:
        values = np.float64(CAST_FLOAT_VALUES).reshape(2, -1)
    elif src == "bool":
        values = np.array([[True, False, True, True], [False, True, False,
                                                        False]])
    else:
        values = np.array(CAST_INT_VALUES[src], np.int64).reshape(2, -1)
    x = m.arg("x", values, src)
    xs = c.inputs[-1][1]
    for dst in ALL_DTYPES:
        m.output("to_" + dst, m.cast(x, dst), cast_expected(xs, src, dst),
                 EXACT)
    return m.finish()


for _src in ALL_DTYPES:
    case((lambda s: lambda: dtype_cast_case(s))(_src))


@case
def dtype_cast_float_special():
    c = Case("dtype_cast_float_special", "float -> float casts of NaN, "
             "+-inf, overflow to inf, subnormal results and -0 "
             "(model.mlir)")
    m = Mlir(c)
    values = np.float64([np.nan, np.inf, -np.inf, 1e39, -1e39, 3.4e38,
                         70000.0, 65520.0, 65519.99, -65536.0, 1e-8, -1e-8,
                         1e-40, 2.0**-133, 2.0**-150, -0.0])
    x = m.arg("x", values, "f64")
    for dst in ("f32", "f16", "bf16"):
        m.output("f64_to_" + dst, m.cast(x, dst),
                 cast_expected(values, "f64", dst), EXACT)
    with np.errstate(over="ignore"):
        ys = values.astype(np.float32)
    y = m.arg("y", ys, "f32")
    ys = ys.astype(np.float64)
    for dst in ("f16", "bf16", "f64"):
        m.output("f32_to_" + dst, m.cast(y, dst),
                 cast_expected(ys, "f64", dst), EXACT)
    return m.finish()


@case
def dtype_binary_f64():
    c = Case("dtype_binary_f64", "f64 add/sub/mul/div/max/min/pow with "
             "broadcasting and an f64 constant, to near double precision "
             "(model.mlir)")
    m = Mlir(c)
    xv = c.rng.standard_normal((3, 4)) * 3
    yv = c.rng.standard_normal(4) + np.array([0.5, -0.5, 2, -2])
    x, y = m.arg("x", xv, "f64"), m.arg("y", yv, "f64")
    k, kv = m.const([1.0 / 3, -2.0**-30, 1e300, 7.25], "f64")
    tol = (1e-15, 0.0)
    m.output("add", m.binary("add", x, y), xv + yv, tol)
    m.output("sub", m.binary("sub", x, y), xv - yv, tol)
    m.output("mul", m.binary("mul", x, y), xv * yv, tol)
    m.output("div", m.binary("div", x, y), xv / yv, tol)
    m.output("max", m.binary("max", x, y), np.maximum(xv, yv), EXACT)
    m.output("min", m.binary("min", x, y), np.minimum(xv, yv), EXACT)
    ax = m.unary("abs", x)
    m.output("pow", m.binary("pow", ax, y), np.abs(xv) ** yv, (1e-14, 0.0))
    m.output("mul_const", m.binary("mul", x, k), xv * kv, tol)
    return m.finish()


@case
def dtype_unary_f64():
    c = Case("dtype_unary_f64", "f64 exp/log/sqrt/tanh/erf/sigmoid/neg call "
             "the double libm functions (an f32 evaluation would be off by "
             "1e-8) (model.mlir)")
    m = Mlir(c)
    xv = np.concatenate([c.rng.uniform(-5, 5, 14), [0.0, 1e-10]])
    x = m.arg("x", xv, "f64")
    ax = m.unary("abs", x)
    tol = (2e-15, 1e-300)
    m.output("exp", m.unary("exp", x), np.exp(xv), tol)
    m.output("log", m.unary("log", m.binary("add", ax, m.const([1.0],
                                                                "f64")[0])),
             np.log(np.abs(xv) + 1.0), tol)
    m.output("sqrt", m.unary("sqrt", ax), np.sqrt(np.abs(xv)), tol)
    m.output("tanh", m.unary("tanh", x), np.tanh(xv), tol)
    m.output("erf", m.unary("erf", x),
             np.array([math.erf(v) for v in xv]), tol)
    m.output("sigmoid", m.unary("sigmoid", x), 1 / (1 + np.exp(-xv)), tol)
    m.output("neg", m.unary("neg", x), -xv, EXACT)
    return m.finish()


@case
def dtype_reduce_matmul_f64():
    c = Case("dtype_reduce_matmul_f64", "f64 reduce_sum/mean/max, matmul "
             "and softmax, to near double precision (model.mlir)")
    m = Mlir(c)
    xv = c.rng.standard_normal((4, 6)) * 10
    wv = c.rng.standard_normal((6, 5))
    x, w = m.arg("x", xv, "f64"), m.arg("w", wv, "f64")
    tol = (1e-13, 1e-13)
    m.output("sum", m.reduce("reduce_sum", x, [1]), xv.sum(1), tol)
    m.output("mean", m.reduce("reduce_mean", x, [0], True),
             xv.mean(0, keepdims=True), tol)
    m.output("max", m.reduce("reduce_max", x, [0, 1]),
             np.float64(xv.max()), EXACT)
    m.output("matmul", m.matmul(x, w), xv @ wv, tol)
    e = np.exp(xv - xv.max(1, keepdims=True))
    m.output("softmax", m.softmax(x, 1), e / e.sum(1, keepdims=True), tol)
    m.output("padded", m.pad(x, [1, 0, 0, 2], -1.25),
             np.pad(xv, ((1, 0), (0, 2)), constant_values=-1.25), EXACT)
    return m.finish()


@case
def dtype_unary_f16():
    c = Case("dtype_unary_f16", "f16 exp/tanh/sqrt/sigmoid (computed in f32, "
             "rounded to f16 per op), neg/abs/relu, an f16 constant, compare "
             "and reduce_max (model.mlir)")
    m = Mlir(c)
    xv = np.concatenate([c.rng.uniform(-4, 4, 20), [0.0, -0.0, 65504.0,
                                                    -1.5]])
    x = m.arg("x", xv, "f16")
    x16 = c.inputs[-1][1]
    x32 = x16.astype(np.float32)

    def r16(v):
        with np.errstate(over="ignore"):
            return np.asarray(v, np.float32).astype(np.float16)
    tol = (2e-3, 1e-4)  # 2 f16 ulps
    with np.errstate(over="ignore"):
        e = np.exp(x32)
    m.output("exp", m.unary("exp", x), r16(e), tol)
    m.output("tanh", m.unary("tanh", x), r16(np.tanh(x32)), tol)
    m.output("sqrt", m.unary("sqrt", m.unary("abs", x)),
             r16(np.sqrt(np.abs(x32))), tol)
    m.output("sigmoid", m.unary("sigmoid", x),
             r16(1 / (1 + np.exp(-x32.astype(np.float64)))), (4e-3, 1e-4))
    m.output("neg", m.unary("neg", x), -x16, EXACT)
    m.output("relu", m.unary("relu", x), np.maximum(x16, np.float16(0)),
             EXACT)
    k, kv = m.const(np.linspace(-3, 3, 24), "f16")
    m.output("add_const", m.binary("add", x, k),
             r16(x32 + kv.astype(np.float32)), EXACT)
    m.output("lt", m.compare("lt", x, k), x16 < kv, EXACT)
    m.output("max", m.reduce("reduce_max", m.reshape(x, (4, 6)), [1]),
             x16.reshape(4, 6).max(1), EXACT)
    return m.finish()


@case
def dtype_bf16():
    c = Case("dtype_bf16", "bf16 (float32 .npy files) exp/tanh computed in "
             "f32 and rounded per op, add with a bf16 constant, matmul, "
             "reduce_max of negative rows (model.mlir)")
    m = Mlir(c)
    xv = c.rng.uniform(-3, 3, (3, 8))
    x = m.arg("x", xv, "bf16")
    xb = c.inputs[-1][1].astype(np.float64)
    tol = (1.6e-2, 1e-4)  # 2 bf16 ulps
    m.output("exp", m.unary("exp", x), bf16_round(np.exp(xb)), tol)
    m.output("tanh", m.unary("tanh", x), bf16_round(np.tanh(xb)), tol)
    k, kv = m.const(np.arange(8) * 0.25 - 1, "bf16")
    m.output("add_const", m.binary("add", x, k),
             bf16_round(xb + kv.astype(np.float64)), EXACT)
    w, wv = m.const(np.eye(8)[:, :4] * 2, "bf16")
    m.output("matmul", m.matmul(x, w), bf16_round(xb @ wv.astype(np.float64)),
             EXACT)
    neg = m.binary("sub", m.unary("neg", m.unary("abs", x)),
                   m.const([100.0], "bf16")[0])
    m.output("max_neg", m.reduce("reduce_max", neg, [1]),
             bf16_round(bf16_round(-np.abs(xb) - 100).astype(np.float64)
                        .max(1)), EXACT)
    return m.finish()


def int_case(dt):
    c = Case("dtype_arith_%s" % dt, "%s add/sub/mul wrap around, max/min, "
             "div (x / 0 = 0, MIN / -1 = MIN), neg/abs of MIN, reduce_sum "
             "(wraps) and reduce_max (identity MIN), pad (model.mlir)" % dt)
    m = Mlir(c)
    t = NP_DTYPES[dt]
    info = np.iinfo(t)
    lo, hi = int(info.min), int(info.max)
    av = np.array([[lo, hi, 100, -100, 7, -7, 0, 1],
                   [hi - 1, lo + 1, -1, 3, 50, -50, 12, -128]], np.int64)
    bv = np.array([1, 1, 100, -100, 0, -1, -1, 3], np.int64)
    a, b = m.arg("a", av, dt), m.arg("b", bv, dt)
    a_, b_ = c.inputs[-2][1].astype(np.int64), c.inputs[-1][1].astype(
        np.int64)

    def wrap(v):
        return np.asarray(v, np.int64).astype(t)
    m.output("add", m.binary("add", a, b), wrap(a_ + b_), EXACT)
    m.output("sub", m.binary("sub", a, b), wrap(a_ - b_), EXACT)
    m.output("mul", m.binary("mul", a, b), wrap(a_ * b_), EXACT)
    m.output("max", m.binary("max", a, b), wrap(np.maximum(a_, b_)), EXACT)
    m.output("min", m.binary("min", a, b), wrap(np.minimum(a_, b_)), EXACT)
    m.output("div", m.binary("div", a, b), wrap(int_div(a_, b_)), EXACT)
    m.output("neg", m.unary("neg", a), wrap(-a_), EXACT)
    m.output("abs", m.unary("abs", a), wrap(np.abs(a_)), EXACT)
    m.output("sum", m.reduce("reduce_sum", a, [1]), wrap(a_.sum(1)), EXACT)
    neg = m.const([[lo, lo + 1, -3], [-9, -2, lo]], dt)
    m.output("rmax_of_neg_rows", m.reduce("reduce_max", neg[0], [1]),
             wrap([-3, -2]), EXACT)
    k, kv = m.const([hi, lo, 2, -3, 5, 0, 1, -1], dt)
    m.output("add_const", m.binary("add", a, k),
             wrap(a_ + kv.astype(np.int64)), EXACT)
    m.output("padded", m.pad(b, [2, 1], -5),
             wrap(np.pad(b_, (2, 1), constant_values=-5)), EXACT)
    return m.finish()


case(lambda: int_case("i8"))
case(lambda: int_case("i16"))



def main():
    torch.set_num_threads(1)
    only = sys.argv[1:]
    names = []
    for make in CASES:
        c = make()
        names.append(c.name)
        if only and c.name not in only:
            continue
        write_case(c)
    assert len(set(names)) == len(names)
    # Drop cases that no longer exist (case folders hold a model file).
    for entry in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, entry)
        if entry.endswith(".test") and entry[:-5] not in names:
            os.remove(path)
        elif (any(os.path.isfile(os.path.join(path, m))
                  for m in ("model.json", "model.mlir")) and
              entry not in names):
            shutil.rmtree(path)
    total = sum(os.path.getsize(os.path.join(r, f))
                for r, _, fs in os.walk(HERE) for f in fs
                if "__pycache__" not in r)
    print("%d cases, %d bytes in %s" % (len(names), total, HERE))


if __name__ == "__main__":
    main()
