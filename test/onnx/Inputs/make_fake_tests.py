#!/usr/bin/python3
"""Writes a fake ONNX node-test directory for testing run_node_tests.py with
the fake mlc-compile/mlc-run in fake-bin/. Each model.onnx is JSON telling the
fake tools how to behave; the .pb files are real (tiny) TensorProtos."""
import json
import os
import struct
import sys


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def tensor_pb(name, values):
    """A float TensorProto: dims (1), data_type (2) = FLOAT, name (8),
    raw_data (9)."""
    raw = struct.pack("<%df" % len(values), *values)
    name_b = name.encode()
    return (varint(1 << 3 | 0) + varint(len(values)) +
            varint(2 << 3 | 0) + varint(1) +
            varint(8 << 3 | 2) + varint(len(name_b)) + name_b +
            varint(9 << 3 | 2) + varint(len(raw)) + raw)


def make(root, name, spec, inputs, outputs=("y",), sets=1, differ=None):
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    spec = dict(spec, inputs=list(inputs))
    with open(os.path.join(d, "model.onnx"), "w") as f:
        json.dump(spec, f)
    for s in range(sets):
        sd = os.path.join(d, "test_data_set_%d" % s)
        os.makedirs(sd, exist_ok=True)
        for k, n in enumerate(inputs):
            v = [1.0, 2.0] if n != differ else [float(s), 2.0]
            with open(os.path.join(sd, "input_%d.pb" % k), "wb") as f:
                f.write(tensor_pb(n, v))
        for k, n in enumerate(outputs):
            with open(os.path.join(sd, "output_%d.pb" % k), "wb") as f:
                f.write(tensor_pb(n, [3.0, 4.0]))


def main():
    root = sys.argv[1]
    make(root, "test_fake_pass", {"compile": "ok", "run": "ok"}, ["x"],
         sets=2)
    make(root, "test_fake_unsupported",
         {"compile": "unsupported"}, ["x"])
    make(root, "test_fake_wrong", {"compile": "ok", "run": "mismatch"},
         ["a", "b"])
    make(root, "test_fake_crash", {"compile": "segv"}, ["x"])
    make(root, "test_fake_run_crash", {"compile": "ok", "run": "segv"}, ["x"])
    make(root, "test_fake_timeout", {"compile": "sleep"}, ["x"])
    # Needs 'shape' (input 1) and then 'starts' (input 2) bound, one round
    # each; mlc-run then gets 'data' only.
    make(root, "test_fake_bind",
         {"compile": "ok", "run": "ok", "bind": ["shape", "starts"]},
         ["data", "shape", "starts"], sets=2)
    make(root, "test_fake_bind_differs",
         {"compile": "ok", "run": "ok", "bind": ["shape"]},
         ["data", "shape"], sets=2, differ="shape")


if __name__ == "__main__":
    main()
