"""safetensors files as {name: numpy array} (numpy only).

Shared by models/mlc_torch.py (the PyTorch reference) and the scripts that
must not need torch (bench/kernels/make_models.py).
"""

import json
import struct

import numpy as np

ST_DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64,
             "I32": np.int32, "BOOL": np.bool_}
ST_NAMES = {np.dtype(v): k for k, v in ST_DTYPES.items()}


def read_safetensors(path):
    """{name: array} of a safetensors file (little-endian, any order)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        dt = np.dtype(ST_DTYPES[e["dtype"]]).newbyteorder("<")
        b, end = e["data_offsets"]
        out[name] = np.frombuffer(data[b:end], dtype=dt).astype(
            dt.newbyteorder("=")).reshape(e["shape"])
    return out


def write_safetensors(path, tensors):
    """Writes {name: array} like models/gen_models.py: 8-aligned data,
    larger element types first, names sorted within a type."""
    items = sorted(tensors.items(),
                   key=lambda t: (-np.asarray(t[1]).dtype.itemsize, t[0]))
    header, blobs, offset = {}, [], 0
    for name, a in items:
        a = np.array(a, order="C")  # ascontiguousarray makes 0-d 1-d
        raw = a.astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": ST_NAMES[a.dtype], "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
