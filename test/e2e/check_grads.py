"""Checks the gradients of one compiled training step against the PyTorch
references that gen_grad_refs.py saved (test/e2e/train-grads.test).

usage: check_grads.py CASE_DIR AFTER.safetensors [--log MLC_RUN_OUTPUT]

CASE_DIR is test/e2e/Inputs/grad_refs/<case>: its model.json trains with plain
SGD (no momentum or weight decay) from init "weights", whose values are
CASE_DIR/weights.safetensors, and AFTER.safetensors is what
`mlc-run --train ... --epochs 1 --save-weights AFTER` wrote after exactly
one step on the case's batch. So, for every trainable weight w,
    grad = (w_before - w_after) / lr
is compared with CASE_DIR/grad/<w>.npy (float64 autograd, stored as f32):
    |grad - ref| <= rtol * |ref| + atol,  rtol = 1e-3,
    atol = 2^-22 * max(|w_before|, |w_after|)   (float32 rounding of w - lr*g,
                                                 which the subtraction exposes)
         + 1e-4 * max|ref| over the weight      (float32 accumulation in the
                                                 step itself, relative to the
                                                 weight's gradient scale)
         + 1e-6 * max|ref| over all weights     (the same for a gradient
                                                 that is ~0 in exact arithmetic)
batch_norm running statistics (CASE_DIR/buffer/<name>.npy) must match with
rtol 1e-4 (+ 1e-6 absolute), and other weights, where saved, must be unchanged.
With --log, the first number after the word "loss" in mlc-run's output is
compared with CASE_DIR/loss.npy, to the precision it is printed with.

Prints the worst error of every weight; exits 1 on any mismatch. numpy only.
"""

import argparse
import json
import os
import re
import struct
import sys

import numpy as np

RTOL = 1e-3
SCALE_TOL = 1e-4
GLOBAL_TOL = 1e-6
ROUNDING = 2.0 ** -22
BUFFER_RTOL, BUFFER_ATOL = 1e-4, 1e-6

ST_DTYPES = {"F32": np.float32, "F64": np.float64, "F16": np.float16,
             "I64": np.int64, "I32": np.int32, "I16": np.int16,
             "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_}


def read_safetensors(path):
    """{name: array}: u64 LE header size, JSON header, raw LE data."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError("%s: too short for a safetensors file" % path)
    (n,) = struct.unpack("<Q", blob[:8])
    if 8 + n > len(blob):
        raise ValueError("%s: header size %d past the end" % (path, n))
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = blob[8 + n:]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        if e["dtype"] not in ST_DTYPES:
            raise ValueError("%s: %s: unsupported dtype %s" %
                             (path, name, e["dtype"]))
        dt = np.dtype(ST_DTYPES[e["dtype"]]).newbyteorder("<")
        b, end = e["data_offsets"]
        count = int(np.prod(e["shape"], dtype=np.int64))
        if not 0 <= b <= end <= len(data) or end - b != count * dt.itemsize:
            raise ValueError("%s: %s: bad data_offsets %s" % (path, name,
                                                               [b, end]))
        out[name] = np.frombuffer(data[b:end], dtype=dt).astype(
            dt.newbyteorder("=")).reshape(e["shape"])
    return out


def load_dir(d):
    if not os.path.isdir(d):
        return {}
    return {f[:-4]: np.load(os.path.join(d, f))
            for f in sorted(os.listdir(d)) if f.endswith(".npy")}


def learning_rate(case):
    with open(os.path.join(case, "model.json")) as f:
        opt = json.load(f)["training"]["optimizer"]
    plain = (opt.get("type") == "sgd" and not opt.get("momentum", 0) and
             not opt.get("weight_decay", 0))
    if not plain:
        sys.exit("check_grads.py: %s: the case must train with plain SGD, "
                 "not %s" % (case, json.dumps(opt)))
    return float(opt["lr"])


def check_loss(case, log):
    want = float(np.load(os.path.join(case, "loss.npy")))
    with open(log, errors="replace") as f:
        text = f.read()
    m = re.search(r"loss\b\D{0,8}?([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)",
                  text, re.IGNORECASE)
    if not m:
        print("FAIL loss: no number after 'loss' in %s" % log)
        return False
    printed = m.group(1)
    got = float(printed)
    mantissa = printed.lower().split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(printed.lower().split("e")[1]) if "e" in printed.lower() \
        else 0
    tol = 0.5 * 10.0 ** (exponent - decimals) + 1e-4 * abs(want)
    ok = abs(got - want) <= tol
    print("%s loss: mlc %s, reference %.6f" % ("OK" if ok else "FAIL",
                                               printed, want))
    return ok


def scale_hint(pairs):
    """If every gradient is the reference times one factor, say so: a loss
    that is a sum instead of a mean, or a different mean."""
    num = sum(float(np.sum(g * r)) for g, r in pairs)
    den = sum(float(np.sum(r * r)) for _, r in pairs)
    if den == 0:
        return
    k = num / den
    resid = sum(float(np.sum((g - k * r) ** 2)) for g, r in pairs)
    if abs(k - 1) > 1e-3 and resid <= 1e-6 * k * k * den:
        print("hint: every gradient is %.6g x the reference (a loss scaled "
              "differently?)" % k)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case")
    ap.add_argument("after")
    ap.add_argument("--log")
    args = ap.parse_args()

    lr = learning_rate(args.case)
    before = read_safetensors(os.path.join(args.case, "weights.safetensors"))
    after = read_safetensors(args.after)
    refs = load_dir(os.path.join(args.case, "grad"))
    buffers = load_dir(os.path.join(args.case, "buffer"))
    ok = True
    pairs = []
    global_scale = max([float(np.abs(r).max()) for r in refs.values()] + [0.0])

    for name in sorted(before):
        w0 = before[name]
        if name not in after:
            if name in refs or name in buffers:
                print("FAIL %s: not in %s" % (name, args.after))
                ok = False
            continue
        w1 = after[name]
        if w1.shape != w0.shape or w1.dtype != w0.dtype:
            print("FAIL %s: saved as %s %s, expected %s %s" % (
                name, w1.dtype, list(w1.shape), w0.dtype, list(w0.shape)))
            ok = False
            continue
        if name in refs:
            ref = refs[name].astype(np.float64)
            w0d, w1d = w0.astype(np.float64), w1.astype(np.float64)
            got = (w0d - w1d) / lr
            atol = (ROUNDING * np.maximum(np.abs(w0d), np.abs(w1d)) / lr +
                    SCALE_TOL * np.abs(ref).max() + GLOBAL_TOL * global_scale)
            err = np.abs(got - ref)
            bad = err > RTOL * np.abs(ref) + atol
            ratio = err / (RTOL * np.abs(ref) + atol)
            i = np.unravel_index(np.argmax(ratio), err.shape)
            print("%s grad %s %s: worst |err| %.3g at %s (mlc %.6g, ref %.6g;"
                  " %.0f%% of tolerance), max|ref| %.3g%s" % (
                      "FAIL" if bad.any() else "OK", name, list(ref.shape),
                      err[i], list(i), got[i], ref[i], 100 * ratio[i],
                      np.abs(ref).max(),
                      ", %d of %d elements out of tolerance" %
                      (bad.sum(), bad.size) if bad.any() else ""))
            ok &= not bad.any()
            pairs.append((got, ref))
        elif name in buffers:
            ref = buffers[name].astype(np.float64)
            got = w1.astype(np.float64)
            err = np.abs(got - ref)
            bad = err > BUFFER_RTOL * np.abs(ref) + BUFFER_ATOL
            print("%s buffer %s %s: worst |err| %.3g (before %s, expected %s,"
                  " saved %s)" % (
                      "FAIL" if bad.any() else "OK", name, list(ref.shape),
                      err.max(), np.array2string(w0.reshape(-1)[:3],
                                                 precision=4),
                      np.array2string(ref.reshape(-1)[:3], precision=4),
                      np.array2string(got.reshape(-1)[:3], precision=4)))
            ok &= not bad.any()
        else:
            same = np.array_equal(w0, w1)
            print("%s constant %s: %s" % ("OK" if same else "FAIL", name,
                                          "unchanged" if same else "changed"))
            ok &= same
    extra = sorted(set(after) - set(before))
    if extra:
        print("note: %s also holds %s" % (args.after, ", ".join(extra)))
    if args.log:
        ok &= check_loss(args.case, args.log)
    if not ok:
        scale_hint(pairs)
        print("MISMATCH")
        sys.exit(1)
    print("ALL OK")


if __name__ == "__main__":
    main()
