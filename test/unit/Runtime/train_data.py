"""Data and checks for mlc-run-train.test.

usage: train_data.py DIR                       writes the .npy files
       train_data.py DIR --check-accuracy OUT W.safetensors
       train_data.py DIR --check-logits W.safetensors X.npy LOGITS.npy
"""
import json
import struct
import sys

import numpy as np

out = sys.argv[1]


def read_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    assert n % 8 == 0, n
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        assert entry["dtype"] in ("F32", "I64"), entry
        begin, end = entry["data_offsets"]
        dtype = np.float32 if entry["dtype"] == "F32" else np.int64
        tensors[name] = np.frombuffer(body[begin:end], dtype).reshape(
            entry["shape"])
    return tensors


if len(sys.argv) > 2 and sys.argv[2] == "--check-accuracy":
    w = read_safetensors(sys.argv[4])
    assert sorted(w) == ["W", "c"], sorted(w)  # no optimizer state
    xt, yt = np.load(f"{out}/xt.npy"), np.load(f"{out}/yt.npy")
    want = float(np.mean(np.argmax(xt @ w["W"] + w["c"], axis=1) == yt))
    line = [l for l in open(sys.argv[3]) if l.startswith("test_accuracy=")]
    got = float(line[0].split("=")[1])
    assert abs(got - want) < 1e-4, (got, want)
    print("accuracy ok")
elif len(sys.argv) > 2 and sys.argv[2] == "--check-logits":
    w = read_safetensors(sys.argv[3])
    x, logits = np.load(sys.argv[4]), np.load(sys.argv[5])
    np.testing.assert_allclose(logits, x @ w["W"] + w["c"], rtol=1e-5,
                               atol=1e-5)
    print("logits ok")
else:
    rng = np.random.default_rng(0)

    def blobs(n):
        # Class k: feature k is large.
        y = rng.integers(0, 3, size=n)
        x = rng.normal(0, 0.5, size=(n, 4)).astype(np.float32)
        x[np.arange(n), y] += 2.0
        return x, y

    x, y = blobs(50)
    np.save(f"{out}/x.npy", x)
    np.save(f"{out}/y.npy", y)
    np.save(f"{out}/y32.npy", y.astype(np.int32))
    xt, yt = blobs(23)
    np.save(f"{out}/xt.npy", xt)
    np.save(f"{out}/yt.npy", yt)
    np.save(f"{out}/x5.npy", x[:5])
    np.save(f"{out}/y5.npy", y[:5])
    w = np.array([[2], [-1], [0.5]], np.float32)
    for name, n in (("r", 30), ("rt", 7)):
        xr = rng.uniform(-1, 1, size=(n, 3)).astype(np.float32)
        np.save(f"{out}/x{name}.npy", xr)
        np.save(f"{out}/y{name}.npy", (xr @ w + 0.25).astype(np.float32))
    np.save(f"{out}/yr_i64.npy", np.zeros((30, 1), np.int64))
