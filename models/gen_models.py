#!/usr/bin/python3
"""Generates the bundled example models (see models/README.md).

For each model this writes, under models/<name>/:
  model.json          the graph in mlc's model.json format (docs/model-format.md)
  model.safetensors   the larger weights (small ones are inline in the JSON)
  inputs/<name>.npy   one file per graph input
  expected/<name>.npy one file per graph output

Expected outputs come from running the equivalent torch.nn modules in float32,
never from mlc. As a guard against a graph that does not match its torch
module, the script also evaluates each model.json with a small numpy
interpreter of the documented op semantics (float64) and checks it against
the torch result.

Run with Debian's python (it has torch and numpy):
  /usr/bin/python3 models/gen_models.py [--check-only]
The output is deterministic (fixed seeds), so re-running it must leave git
clean.
"""

import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))

# Weights up to this many elements go inline in model.json.
INLINE_LIMIT = 256

NP_DTYPES = {"f32": np.float32, "i64": np.int64, "i32": np.int32,
             "bool": np.bool_}
ST_DTYPES = {"f32": "F32", "i64": "I64", "i32": "I32", "bool": "BOOL"}


def dtype_of(array):
    for name, dt in NP_DTYPES.items():
        if array.dtype == dt:
            return name
    raise ValueError("unsupported dtype %s" % array.dtype)


class Graph:
    """Collects inputs, weights and nodes in file order."""

    def __init__(self, name):
        self.name = name
        self.inputs = []   # (name, array)
        self.weights = []  # (name, array)
        self.nodes = []
        self.outputs = []
        self.counter = 0

    def input(self, name, array):
        # np.ascontiguousarray would turn a 0-d array into shape [1].
        self.inputs.append((name, np.array(array, order="C")))
        return name

    def weight(self, name, array):
        if isinstance(array, torch.Tensor):
            array = array.detach().numpy()
        self.weights.append((name, np.array(array, order="C")))
        return name

    def op(self, op, inputs, out=None, name=None, **attrs):
        if out is None:
            self.counter += 1
            out = "t%d" % self.counter
        node = {"op": op}
        if name:
            node["name"] = name
        node["inputs"] = list(inputs)
        node["outputs"] = [out]
        if attrs:
            node["attrs"] = attrs
        self.nodes.append(node)
        return out

    def output(self, name):
        self.outputs.append(name)


#===------------------------------------------------------------------------===#
# Writers
#===------------------------------------------------------------------------===#

def safetensors_bytes(tensors):
    """Hand-written safetensors: u64 LE header size, JSON header padded with
    spaces so the data starts 8-aligned, then contiguous raw data. Larger
    element types come first so every tensor stays naturally aligned."""
    order = sorted(tensors, key=lambda t: -t[1].dtype.itemsize)
    header, blobs, offset = {}, [], 0
    for name, array in order:
        raw = array.astype(array.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": ST_DTYPES[dtype_of(array)],
                        "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def check_safetensors(path, tensors):
    """Reads the file back the way a reader following the format would."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    assert (8 + n) % 8 == 0
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    end = 0
    for name, array in tensors:
        e = header[name]
        assert e["shape"] == list(array.shape) and e["dtype"] == ST_DTYPES[
            dtype_of(array)]
        b, e_ = e["data_offsets"]
        got = np.frombuffer(data[b:e_], dtype=array.dtype.newbyteorder("<"))
        assert np.array_equal(got.reshape(array.shape), array), name
        end = max(end, e_)
    assert end == len(data)


def json_value(v):
    return json.dumps(v, separators=(", ", ": "))


def model_json(g, weights_file):
    lines = ["{", '  "version": 1,', '  "name": %s,' % json_value(g.name)]
    if weights_file:
        lines.append('  "weights_file": %s,' % json_value(weights_file))
    lines.append('  "inputs": [')
    lines.append(",\n".join(
        "    " + json_value({"name": n, "dtype": dtype_of(a),
                             "shape": list(a.shape)})
        for n, a in g.inputs))
    lines.append("  ],")
    lines.append('  "outputs": %s,' % json_value(g.outputs))
    lines.append('  "weights": [')
    entries = []
    for n, a in g.weights:
        w = {"name": n, "dtype": dtype_of(a), "shape": list(a.shape)}
        if a.size <= INLINE_LIMIT:
            flat = a.reshape(-1)
            if a.dtype == np.float32:
                # float32 -> double is exact and repr() round-trips it.
                w["data"] = [float(v) for v in flat]
            elif a.dtype == np.bool_:
                w["data"] = [bool(v) for v in flat]
            else:
                w["data"] = [int(v) for v in flat]
        entries.append("    " + json_value(w))
    lines.append(",\n".join(entries))
    lines.append("  ],")
    lines.append('  "nodes": [')
    lines.append(",\n".join("    " + json_value(n) for n in g.nodes))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_model(g, inputs, expected, check_only):
    check_graph(g, expected)
    if check_only:
        return
    d = os.path.join(HERE, g.name)
    os.makedirs(os.path.join(d, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(d, "expected"), exist_ok=True)
    big = [(n, a) for n, a in g.weights if a.size > INLINE_LIMIT]
    weights_file = "model.safetensors" if big else None
    with open(os.path.join(d, "model.json"), "w") as f:
        f.write(model_json(g, weights_file))
    st = os.path.join(d, "model.safetensors")
    if big:
        with open(st, "wb") as f:
            f.write(safetensors_bytes(big))
        check_safetensors(st, big)
    elif os.path.exists(st):
        os.remove(st)
    for n, a in inputs.items():
        np.save(os.path.join(d, "inputs", n + ".npy"), a)
    for n, a in expected.items():
        np.save(os.path.join(d, "expected", n + ".npy"), a)
    size = sum(os.path.getsize(os.path.join(r, f))
               for r, _, fs in os.walk(d) for f in fs)
    assert size < 1 << 20, "%s is %d bytes" % (g.name, size)
    print("%-12s %7d bytes, %d nodes, outputs %s" %
          (g.name, size, len(g.nodes), ", ".join(g.outputs)))


#===------------------------------------------------------------------------===#
# numpy interpreter of model.json semantics (a cross-check only)
#===------------------------------------------------------------------------===#

def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _axis(a, rank):
    return a + rank if a < 0 else a


def _windows(xp, kh, kw, sh, sw, dh, dw, oh, ow):
    """Yields xp[..., window (i, j)] views for every kernel offset."""
    for i in range(kh):
        for j in range(kw):
            yield i, j, xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh,
                           j * dw: j * dw + sw * (ow - 1) + 1: sw]


def _pool_geometry(x, attrs, kernel):
    strides = attrs.get("strides", kernel)
    pads = attrs.get("pads", [0, 0, 0, 0])
    dil = attrs.get("dilations", [1, 1])
    h, w = x.shape[2], x.shape[3]
    oh = (h + pads[0] + pads[2] - dil[0] * (kernel[0] - 1) - 1) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - dil[1] * (kernel[1] - 1) - 1) // strides[1] + 1
    return strides, pads, dil, oh, ow


def _pad_hw(x, pads, value):
    return np.pad(x, [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])],
                  constant_values=value)


def eval_node(op, a, attrs):
    x = a[0]
    binary = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
              "div": np.divide, "pow": np.power, "max": np.maximum,
              "min": np.minimum}
    unary = {"neg": np.negative, "abs": np.abs,
             "relu": lambda v: np.maximum(v, 0), "exp": np.exp, "log": np.log,
             "sqrt": np.sqrt, "rsqrt": lambda v: 1 / np.sqrt(v),
             "tanh": np.tanh, "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
             "erf": _erf}
    if op in binary:
        return binary[op](a[0], a[1])
    if op in unary:
        return unary[op](x)
    if op == "gelu":
        if attrs.get("approximate", "none") == "tanh":
            return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                          (x + 0.044715 * x ** 3)))
        return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    if op == "matmul":
        return np.matmul(a[0], a[1])
    if op == "conv2d":
        w = a[1]
        groups = attrs.get("groups", 1)
        kernel = list(w.shape[2:])
        attrs = dict(attrs)
        attrs.setdefault("strides", [1, 1])
        strides, pads, dil, oh, ow = _pool_geometry(x, attrs, kernel)
        xp = _pad_hw(x, pads, 0.0)
        n, c = x.shape[:2]
        o = w.shape[0]
        cg, og = c // groups, o // groups
        out = np.zeros((n, o, oh, ow))
        for g in range(groups):
            xs = xp[:, g * cg:(g + 1) * cg]
            for i, j, win in _windows(xs, kernel[0], kernel[1], strides[0],
                                      strides[1], dil[0], dil[1], oh, ow):
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", win, w[g * og:(g + 1) * og, :, i, j])
        if len(a) == 3:
            out += a[2].reshape(1, -1, 1, 1)
        return out
    if op in ("maxpool2d", "avgpool2d"):
        kernel = attrs["kernel"]
        strides, pads, dil, oh, ow = _pool_geometry(x, attrs, kernel)
        if op == "maxpool2d":
            xp = _pad_hw(x, pads, -np.inf)
            out = np.full(x.shape[:2] + (oh, ow), -np.inf)
            for _, _, win in _windows(xp, kernel[0], kernel[1], strides[0],
                                      strides[1], dil[0], dil[1], oh, ow):
                out = np.maximum(out, win)
            return out
        xp = _pad_hw(x, pads, 0.0)
        ones = _pad_hw(np.ones_like(x), pads, 0.0)
        total = np.zeros(x.shape[:2] + (oh, ow))
        count = np.zeros_like(total)
        for _, _, win in _windows(xp, kernel[0], kernel[1], strides[0],
                                  strides[1], 1, 1, oh, ow):
            total += win
        for _, _, win in _windows(ones, kernel[0], kernel[1], strides[0],
                                  strides[1], 1, 1, oh, ow):
            count += win
        if attrs.get("count_include_pad", False):
            count = np.full_like(total, kernel[0] * kernel[1])
        return total / count
    if op == "global_avgpool":
        return x.mean(axis=(2, 3), keepdims=True)
    if op == "batch_norm":
        eps = attrs.get("epsilon", 1e-5)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        scale, bias, mean, var = (t.reshape(shape) for t in a[1:])
        return (x - mean) / np.sqrt(var + eps) * scale + bias
    if op == "layer_norm":
        axis = _axis(attrs.get("axis", -1), x.ndim)
        eps = attrs.get("epsilon", 1e-5)
        axes = tuple(range(axis, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * a[1] + a[2]
    if op in ("softmax", "log_softmax"):
        axis = attrs.get("axis", -1)
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        s = e / e.sum(axis=axis, keepdims=True)
        return s if op == "softmax" else np.log(s)
    if op.startswith("reduce_"):
        axes = attrs.get("axes", list(range(x.ndim)))
        axes = tuple(_axis(v, x.ndim) for v in axes)
        keep = attrs.get("keepdims", True)
        fn = {"reduce_sum": np.sum, "reduce_mean": np.mean,
              "reduce_max": np.max}[op]
        return fn(x, axis=axes, keepdims=keep)
    if op == "reshape":
        return x.reshape(attrs["shape"])
    if op == "transpose":
        return np.transpose(x, attrs.get("perm", list(range(x.ndim))[::-1]))
    if op == "concat":
        return np.concatenate(a, axis=attrs["axis"])
    if op == "slice":
        starts, ends = attrs["starts"], attrs["ends"]
        axes = attrs.get("axes", list(range(len(starts))))
        steps = attrs.get("steps", [1] * len(starts))
        index = [slice(None)] * x.ndim
        for s, e, ax, st in zip(starts, ends, axes, steps):
            index[_axis(ax, x.ndim)] = slice(s, e, st)
        return x[tuple(index)]
    if op == "gather":
        axis = _axis(attrs.get("axis", 0), x.ndim)
        n = x.shape[axis]
        idx = np.where(a[1] < 0, a[1] + n, a[1])
        return np.take(x, np.clip(idx, 0, n - 1), axis=axis)
    if op == "pad":
        p = attrs["pads"]
        r = x.ndim
        return np.pad(x, [(p[i], p[i + r]) for i in range(r)],
                      constant_values=attrs.get("value", 0.0))
    if op == "cast":
        to = attrs["to"]
        if to == "bool":
            return x != 0
        if to in ("i32", "i64") and x.dtype.kind == "f":
            x = np.trunc(x)
        return x.astype({"f32": np.float64, "i32": np.int32,
                         "i64": np.int64}[to])
    if op == "compare":
        fn = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
              "le": np.less_equal, "gt": np.greater,
              "ge": np.greater_equal}[attrs["predicate"]]
        return fn(a[0], a[1])
    if op == "select":
        return np.where(a[0], a[1], a[2])
    raise NotImplementedError(op)


def check_graph(g, expected):
    env = {}
    for n, arr in g.inputs + g.weights:
        env[n] = arr.astype(np.float64) if arr.dtype == np.float32 else arr
    for node in g.nodes:  # generators emit nodes in topological order
        args = [env[i] for i in node["inputs"]]
        env[node["outputs"][0]] = eval_node(node["op"], args,
                                            node.get("attrs", {}))
    assert list(expected) == g.outputs, (list(expected), g.outputs)
    for name in g.outputs:
        got, want = env[name], expected[name]
        assert got.shape == want.shape, (g.name, name, got.shape, want.shape)
        if want.dtype == np.float32:
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5,
                                       err_msg="%s:%s" % (g.name, name))
        else:
            np.testing.assert_array_equal(got.astype(want.dtype), want,
                                          err_msg="%s:%s" % (g.name, name))


def f32(t):
    return t.detach().numpy().astype(np.float32)


#===------------------------------------------------------------------------===#
# Models
#===------------------------------------------------------------------------===#

def linear(g, x, lin, prefix):
    """x @ W^T + b with W stored transposed ([in, out]) as the format wants."""
    w = g.weight(prefix + ".w", lin.weight.detach().numpy().T)
    b = g.weight(prefix + ".b", lin.bias)
    h = g.op("matmul", [x, w], name=prefix)
    return h, b


def mlp():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(784, 200), nn.ReLU(), nn.Linear(200, 10))
    net.eval()
    x = torch.rand(1, 784)
    with torch.no_grad():
        ref = net(x)
    g = Graph("mlp")
    g.input("x", f32(x))
    h, b = linear(g, "x", net[0], "fc1")
    h = g.op("add", [h, b])
    h = g.op("relu", [h])
    h, b = linear(g, h, net[2], "fc2")
    g.op("add", [h, b], out="logits")
    g.output("logits")
    return g, {"x": f32(x)}, {"logits": f32(ref)}


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(400, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.avg_pool2d(F.relu(self.conv2(x)), 2)
        x = x.reshape(1, 400)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return F.softmax(self.fc3(x), dim=-1)


def lenet():
    torch.manual_seed(1)
    net = LeNet().eval()
    x = torch.rand(1, 1, 28, 28)
    with torch.no_grad():
        ref = net(x)
    g = Graph("lenet")
    g.input("x", f32(x))
    w1 = g.weight("conv1.w", net.conv1.weight)
    b1 = g.weight("conv1.b", net.conv1.bias)
    h = g.op("conv2d", ["x", w1, b1], name="conv1", pads=[2, 2, 2, 2])
    h = g.op("relu", [h])
    h = g.op("maxpool2d", [h], name="pool1", kernel=[2, 2])
    w2 = g.weight("conv2.w", net.conv2.weight)
    b2 = g.weight("conv2.b", net.conv2.bias)
    h = g.op("conv2d", [h, w2, b2], name="conv2")
    h = g.op("relu", [h])
    h = g.op("avgpool2d", [h], name="pool2", kernel=[2, 2])
    h = g.op("reshape", [h], shape=[1, 400])
    for i, fc in enumerate([net.fc1, net.fc2, net.fc3]):
        h, b = linear(g, h, fc, "fc%d" % (i + 1))
        h = g.op("add", [h, b])
        if i < 2:
            h = g.op("relu", [h])
    g.op("softmax", [h], out="probs", axis=-1)
    g.output("probs")
    return g, {"x": f32(x)}, {"probs": f32(ref)}


class Block(nn.Module):
    """Pre-LN transformer encoder block."""

    def __init__(self, d=64, heads=4, hidden=256):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        a = self.ln1(x)
        h = x + self.attn(a, a, a, need_weights=False)[0]
        return h + self.fc2(F.gelu(self.fc1(self.ln2(h))))


def transformer():
    torch.manual_seed(2)
    seq, d, heads = 16, 64, 4
    hd = d // heads
    net = Block(d, heads, 256)
    # Default init has unit LayerNorm scales and zero attention biases, which
    # would hide mistakes in how they are wired; randomize them.
    with torch.no_grad():
        for ln in (net.ln1, net.ln2):
            ln.weight.copy_(1 + 0.2 * torch.randn(d))
            ln.bias.copy_(0.1 * torch.randn(d))
        net.attn.in_proj_bias.copy_(0.1 * torch.randn(3 * d))
        net.attn.out_proj.bias.copy_(0.1 * torch.randn(d))
    net.eval()
    x = torch.randn(1, seq, d)
    with torch.no_grad():
        ref = net(x)

    g = Graph("transformer")
    g.input("x", f32(x))
    ln1_s = g.weight("ln1.scale", net.ln1.weight)
    ln1_b = g.weight("ln1.bias", net.ln1.bias)
    a = g.op("layer_norm", ["x", ln1_s, ln1_b], name="ln1", axis=-1,
             epsilon=1e-5)
    in_w = net.attn.in_proj_weight.detach().numpy()
    in_b = net.attn.in_proj_bias.detach().numpy()
    proj = {}
    for i, p in enumerate("qkv"):
        w = g.weight("attn.%s.w" % p, in_w[i * d:(i + 1) * d].T)
        b = g.weight("attn.%s.b" % p, in_b[i * d:(i + 1) * d])
        t = g.op("matmul", [a, w], name="attn." + p)
        t = g.op("add", [t, b])
        t = g.op("reshape", [t], shape=[1, seq, heads, hd])
        # q, v: [1, heads, seq, hd]; k goes straight to [1, heads, hd, seq].
        perm = [0, 2, 3, 1] if p == "k" else [0, 2, 1, 3]
        proj[p] = g.op("transpose", [t], perm=perm)
    scale = g.weight("attn.scale", np.array(1 / math.sqrt(hd), np.float32))
    s = g.op("matmul", [proj["q"], proj["k"]], name="attn.scores")
    s = g.op("mul", [s, scale])
    p = g.op("softmax", [s], axis=-1)
    o = g.op("matmul", [p, proj["v"]], name="attn.context")
    o = g.op("transpose", [o], perm=[0, 2, 1, 3])
    o = g.op("reshape", [o], shape=[1, seq, d])
    o, b = linear(g, o, net.attn.out_proj, "attn.out")
    o = g.op("add", [o, b])
    h = g.op("add", ["x", o], name="residual1")
    ln2_s = g.weight("ln2.scale", net.ln2.weight)
    ln2_b = g.weight("ln2.bias", net.ln2.bias)
    m = g.op("layer_norm", [h, ln2_s, ln2_b], name="ln2")
    m, b = linear(g, m, net.fc1, "fc1")
    m = g.op("add", [m, b])
    m = g.op("gelu", [m], approximate="none")
    m, b = linear(g, m, net.fc2, "fc2")
    m = g.op("add", [m, b])
    g.op("add", [h, m], out="y", name="residual2")
    g.output("y")
    return g, {"x": f32(x)}, {"y": f32(ref)}


def tiny_ops():
    torch.manual_seed(3)
    x = torch.randn(1, 4, 8, 8)
    idx = torch.tensor([0, -1, 5], dtype=torch.int64)
    g = Graph("tiny_ops")
    g.input("x", f32(x))
    g.input("idx", idx.numpy())

    # Grouped, strided, dilated conv with asymmetric padding, then
    # batch_norm and global_avgpool.
    conv = nn.Conv2d(4, 6, 3, stride=2, dilation=2, groups=2)
    bn = nn.BatchNorm2d(6, eps=1e-3)
    with torch.no_grad():
        bn.weight.copy_(1 + 0.3 * torch.randn(6))
        bn.bias.copy_(0.2 * torch.randn(6))
        bn.running_mean.copy_(0.5 * torch.randn(6))
        bn.running_var.copy_(0.5 + torch.rand(6))
    conv.eval()
    bn.eval()
    pads = [1, 2, 2, 1]  # top, left, bottom, right
    with torch.no_grad():
        c = conv(F.pad(x, (pads[1], pads[3], pads[0], pads[2])))
        conv_bn = F.adaptive_avg_pool2d(bn(c), 1)
    cw = g.weight("conv.w", conv.weight)
    cb = g.weight("conv.b", conv.bias)
    t = g.op("conv2d", ["x", cw, cb], name="conv", strides=[2, 2],
             pads=pads, dilations=[2, 2], groups=2)
    t = g.op("batch_norm", [t, g.weight("bn.scale", bn.weight),
                            g.weight("bn.bias", bn.bias),
                            g.weight("bn.mean", bn.running_mean),
                            g.weight("bn.var", bn.running_var)],
             epsilon=1e-3)
    g.op("global_avgpool", [t], out="conv_bn")

    # Elementwise ops, all on safe ranges (log/sqrt/rsqrt of sigmoid > 0).
    expo = torch.tensor([2.0, 0.5, 1.5, 3.0]).reshape(4, 1, 1)
    with torch.no_grad():
        sig = torch.sigmoid(x)
        elem = torch.maximum(torch.tanh(x) / torch.sqrt(sig),
                             torch.erf(x) - torch.log(sig))
        elem = elem + torch.minimum(torch.rsqrt(sig),
                                    torch.exp(-torch.abs(x)))
        elem = elem * torch.pow(sig, expo)
    s = g.op("sigmoid", ["x"])
    a = g.op("div", [g.op("tanh", ["x"]), g.op("sqrt", [s])])
    b = g.op("sub", [g.op("erf", ["x"]), g.op("log", [s])])
    e = g.op("max", [a, b])
    m = g.op("min", [g.op("rsqrt", [s]),
                     g.op("exp", [g.op("neg", [g.op("abs", ["x"])])])])
    e = g.op("add", [e, m])
    p = g.op("pow", [s, g.weight("expo", expo)])
    g.op("mul", [e, p], out="elem")

    # Data movement: concat, slice (negative start, clamped end, steps),
    # gather with negative indices from an input, pad; then reductions.
    with torch.no_grad():
        cat = torch.cat([x, sig], dim=1)
        sl = cat[:, 1:7:2, :, 2::3]
        ga = torch.index_select(sl, 2, torch.where(idx < 0, idx + 8, idx))
        # F.pad lists (begin, end) pairs from the last dim backwards.
        pd = F.pad(ga, (0, 2, 1, 0, 0, 1, 0, 0), value=0.5)
        red = torch.log_softmax(pd.sum(dim=(1, 3)), dim=-1)
        rmean = pd.mean(dim=2, keepdim=True)
        rmax = pd.amax()
    t = g.op("concat", ["x", s], axis=1)
    t = g.op("slice", [t], starts=[1, -6], ends=[7, 100], axes=[1, 3],
             steps=[2, 3])
    t = g.op("gather", [t, "idx"], axis=2)
    padded = g.op("pad", [t], pads=[0, 0, 1, 0, 0, 1, 0, 2], value=0.5)
    t = g.op("reduce_sum", [padded], axes=[1, -1], keepdims=False)
    g.op("log_softmax", [t], out="red", axis=-1)
    g.op("reduce_mean", [padded], out="rmean", axes=[2], keepdims=True)
    g.op("reduce_max", [padded], out="rmax", keepdims=False)

    # compare + select, and casts (f32 -> i32 truncates; bool -> f32).
    zero = g.weight("zero", np.zeros((), np.float32))
    four = g.weight("four", np.array([4.0], np.float32))
    with torch.no_grad():
        cond = x > 0
        sel = torch.where(cond, x, x * 4.0)
        ci = (x * 4.0).to(torch.int32)
        cf = cond.to(torch.float32).sum(dim=(2, 3))
    cond_name = g.op("compare", ["x", zero], predicate="gt")
    x4 = g.op("mul", ["x", four])
    g.op("select", [cond_name, "x", x4], out="sel")
    g.op("cast", [x4], out="ci", to="i32")
    t = g.op("cast", [cond_name], to="f32")
    g.op("reduce_sum", [t], out="cf", axes=[2, 3], keepdims=False)

    for n in ["conv_bn", "elem", "red", "rmean", "rmax", "sel", "ci", "cf"]:
        g.output(n)
    expected = {"conv_bn": f32(conv_bn), "elem": f32(elem), "red": f32(red),
                "rmean": f32(rmean), "rmax": f32(rmax), "sel": f32(sel),
                "ci": ci.numpy(), "cf": f32(cf)}
    return g, {"x": f32(x), "idx": idx.numpy()}, expected


def main():
    check_only = "--check-only" in sys.argv[1:]
    torch.set_num_threads(1)
    for make in (mlp, lenet, transformer, tiny_ops):
        g, inputs, expected = make()
        write_model(g, inputs, expected, check_only)


if __name__ == "__main__":
    main()
