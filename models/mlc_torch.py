"""model.json in PyTorch: a small interpreter of mlc's model format
(docs/model-format.md) and of its `training` section (docs/training.md).

Used as an independent reference, never by mlc itself:
  models/digits/train_torch.py   checks its nn.Modules against the graph,
                                 reads the recipe (optimizer, batch, init)
  test/e2e/gen_grad_refs.py      losses and gradients in float64 (autograd)
  bench/train_step.py            the same weights for mlc and PyTorch

Everything follows the documented semantics op by op: matmul weights are
[in, out] ("rhs" [..., K, N]), conv2d is NCHW/OIHW with pads [top, left,
bottom, right], batch_norm in a training step normalizes with the batch's
statistics and updates the running ones (torch semantics), etc.

Needs numpy and torch (Debian's /usr/bin/python3).
"""

import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

# safetensors I/O is numpy only, shared with scripts that do not need torch.
from safetensors_np import (ST_DTYPES, ST_NAMES,  # noqa: F401
                            read_safetensors, write_safetensors)

NP_DTYPES = {"f32": np.float32, "i64": np.int64, "i32": np.int32,
             "bool": np.bool_}
#===------------------------------------------------------------------------===#
# Model and training section
#===------------------------------------------------------------------------===#

TRAINING_DEFAULTS = {
    "sgd": {"momentum": 0.0, "weight_decay": 0.0, "nesterov": False},
    "adam": {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
             "weight_decay": 0.0},
}


class Model:
    """A parsed model.json: inputs, outputs, weights (numpy, None where the
    weight has no data), nodes, and the training section with defaults."""

    def __init__(self, path, load_weights=True, json_obj=None):
        """json_obj: the parsed model instead of the file's contents (path
        then only locates the weights_file)."""
        self.path = path
        if json_obj is None:
            with open(path) as f:
                json_obj = json.load(f)
        self.json = json_obj
        j = self.json
        self.name = j.get("name", os.path.basename(os.path.dirname(path)))
        self.inputs = [(i["name"], i["dtype"], list(i["shape"]))
                       for i in j["inputs"]]
        self.outputs = list(j["outputs"])
        self.weight_decls = [(w["name"], w["dtype"], list(w["shape"]))
                             for w in j.get("weights", [])]
        self.nodes = list(j["nodes"])
        self.training = j.get("training")
        self.weights = {}
        if load_weights:
            self._load_weights()
        self.roles = self._weight_roles()

    def _load_weights(self):
        st = None
        wf = self.json.get("weights_file")
        for w in self.json.get("weights", []):
            dt = NP_DTYPES[w["dtype"]]
            if "data" in w:
                a = np.array(w["data"], dtype=dt).reshape(w["shape"])
            elif wf is not None:
                if st is None:
                    st = read_safetensors(
                        os.path.join(os.path.dirname(self.path), wf))
                a = st[w["name"]]
                assert a.dtype == dt and list(a.shape) == w["shape"], w["name"]
            else:
                a = None  # init "random" models need no data
            self.weights[w["name"]] = a

    def _weight_roles(self):
        """name -> role of a weight's first use, which decides its random
        init: matmul_rhs, conv_filter, norm_scale, bn_mean, bn_var, other."""
        names = {n for n, _, _ in self.weight_decls}
        roles = {}
        for node in self.nodes:
            for k, v in enumerate(node["inputs"]):
                if v not in names or v in roles:
                    continue
                op = node["op"]
                if op == "matmul" and k == 1:
                    roles[v] = "matmul_rhs"
                elif _window_op(op) and op.startswith("conv") and k == 1:
                    roles[v] = "conv_filter"
                elif op in ("batch_norm", "layer_norm") and k == 1:
                    roles[v] = "norm_scale"
                elif op == "batch_norm" and k == 3:
                    roles[v] = "bn_mean"
                elif op == "batch_norm" and k == 4:
                    roles[v] = "bn_var"
                else:
                    roles[v] = "other"
        for n in names:
            roles.setdefault(n, "other")
        return roles

    # -- training section ---------------------------------------------------

    def optimizer(self):
        o = dict(self.training["optimizer"])
        d = dict(TRAINING_DEFAULTS[o["type"]])
        d.update(o)
        return d

    def batch_norm_momentum(self):
        return self.training.get("batch_norm_momentum", 0.1)

    def buffers(self):
        """batch_norm running means and variances, in weight order."""
        return [n for n, _, _ in self.weight_decls
                if self.roles[n] in ("bn_mean", "bn_var")]

    def trainable(self):
        """Trained weights, in weight order."""
        if self.training is not None and "trainable" in self.training:
            chosen = set(self.training["trainable"])
            return [n for n, _, _ in self.weight_decls if n in chosen]
        buffers = set(self.buffers())
        return [n for n, dt, _ in self.weight_decls
                if dt == "f32" and n not in buffers]

    def training_inputs(self):
        """[(name, dtype, shape)] of a training step: the model's inputs
        with dim 0 = batch_size, then the labels or target."""
        b = self.training["batch_size"]
        out = [(n, dt, [b] + s[1:]) for n, dt, s in self.inputs]
        loss = self.training["loss"]
        if loss["type"] == "softmax_cross_entropy":
            out.append((loss["labels"], "i64", [b]))
        return out  # the mse target's shape is the output's: see forward

    def initial_weights(self):
        """The weights a training run starts from (numpy, model dtypes)."""
        init = (self.training or {}).get("init", {"method": "weights"})
        if init["method"] == "weights":
            missing = [n for n, a in self.weights.items() if a is None]
            assert not missing, "no data for %s" % missing
            return {n: a.copy() for n, a in self.weights.items()}
        assert init["method"] == "random", init
        return random_init(self, init.get("seed", 0))


def random_init(model, seed):
    """init {"method": "random"} as documented in docs/training.md, drawn
    from numpy's default_rng(seed) in weight order. (mlc's own generator
    draws other numbers from the same distributions.)"""
    rng = np.random.default_rng(seed)
    out = {}
    for name, dt, shape in model.weight_decls:
        role = model.roles[name]
        bound = None
        if role == "matmul_rhs":
            bound = 1 / math.sqrt(shape[-2])
        elif role == "conv_filter":
            bound = 1 / math.sqrt(int(np.prod(shape[1:])))
        elif role in ("norm_scale", "bn_var"):
            value = 1
        elif len(shape) >= 2:
            bound = 1 / math.sqrt(shape[-2])
        else:
            value = 0
        if dt != "f32":
            # Non-float weights (indices, masks) keep their data.
            out[name] = model.weights[name]
            continue
        if bound is None:
            out[name] = np.full(shape, value, np.float32)
        else:
            out[name] = rng.uniform(-bound, bound, size=shape).astype(
                np.float32)
    return out


#===------------------------------------------------------------------------===#
# The interpreter
#===------------------------------------------------------------------------===#

def _axis(a, rank):
    return a + rank if a < 0 else a


def _pad_spatial(x, pads, value):
    """pads: all begins, then all ends of the spatial dims; F.pad lists
    (begin, end) pairs from the last dim backwards."""
    if not any(pads):
        return x
    d = len(pads) // 2
    flat = []
    for i in reversed(range(d)):
        flat += [pads[i], pads[i + d]]
    return F.pad(x, tuple(flat), value=value)


def _window_op(op):
    """(kind, dims) of conv1d .. conv_transpose3d, else None."""
    for kind in ("conv_transpose", "conv", "maxpool", "avgpool"):
        rest = op[len(kind):]
        if op.startswith(kind) and rest in ("1d", "2d", "3d"):
            return kind, int(rest[0])
    return None


def _eval_window(window, attrs, a):
    kind, d = window
    x = a[0]
    ones, zeros = [1] * d, [0] * (2 * d)
    pads = attrs.get("pads", zeros)
    if kind == "conv":
        conv = (F.conv1d, F.conv2d, F.conv3d)[d - 1]
        return conv(_pad_spatial(x, pads, 0.0), a[1],
                    a[2] if len(a) > 2 else None,
                    stride=attrs.get("strides", ones),
                    dilation=attrs.get("dilations", ones),
                    groups=attrs.get("groups", 1))
    if kind == "conv_transpose":
        # The full result (no padding) loses pads[i] at the start and
        # pads[d + i] - output_padding[i] at the end (a negative amount is
        # zeros appended); the bias is added everywhere.
        conv_t = (F.conv_transpose1d, F.conv_transpose2d,
                  F.conv_transpose3d)[d - 1]
        y = conv_t(x, a[1], None, stride=attrs.get("strides", ones),
                   dilation=attrs.get("dilations", ones),
                   groups=attrs.get("groups", 1))
        out_pad = attrs.get("output_padding", [0] * d)
        crop_end = [pads[d + i] - out_pad[i] for i in range(d)]
        y = _pad_spatial(y, [0] * d + [max(-c, 0) for c in crop_end], 0.0)
        index = [slice(None), slice(None)]
        for i in range(d):
            index.append(slice(pads[i], y.shape[2 + i] - max(crop_end[i], 0)))
        y = y[tuple(index)]
        if len(a) > 2:
            y = y + a[2].reshape((1, -1) + (1,) * d)
        return y
    k = attrs["kernel"]
    s = attrs.get("strides", k)
    if kind == "maxpool":
        pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[d - 1]
        return pool(_pad_spatial(x, pads, -math.inf), k, stride=s,
                    dilation=attrs.get("dilations", ones))
    pool = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[d - 1]

    def window_sum(v):
        # avg_pool1d has no divisor_override: mean times the window size.
        return pool(v, k, stride=s) * math.prod(k)
    total = window_sum(_pad_spatial(x, pads, 0.0))
    if attrs.get("count_include_pad", False):
        return total / math.prod(k)
    ones_t = _pad_spatial(torch.ones_like(x), pads, 0.0)
    return total / window_sum(ones_t)


def _erf_gelu(x):
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def eval_node(node, a, train, bn_momentum, buffer_updates):
    op = node["op"]
    attrs = node.get("attrs", {})
    x = a[0]
    binary = {"add": torch.add, "sub": torch.sub, "mul": torch.mul,
              "pow": torch.pow, "max": torch.maximum, "min": torch.minimum}
    unary = {"neg": torch.neg, "abs": torch.abs, "relu": torch.relu,
             "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt,
             "rsqrt": torch.rsqrt, "tanh": torch.tanh,
             "sigmoid": torch.sigmoid, "erf": torch.erf}
    if op in binary:
        return binary[op](a[0], a[1])
    if op == "div":
        if a[0].is_floating_point():
            return a[0] / a[1]
        return torch.div(a[0], a[1], rounding_mode="trunc")
    if op in unary:
        return unary[op](x)
    if op == "gelu":
        if attrs.get("approximate", "none") == "tanh":
            return F.gelu(x, approximate="tanh")
        return _erf_gelu(x)
    if op == "matmul":
        return torch.matmul(a[0], a[1])
    window = _window_op(op)
    if window is not None:
        return _eval_window(window, attrs, a)
    if op == "global_avgpool":
        return x.mean(dim=(2, 3), keepdim=True)
    if op == "batch_norm":
        eps = attrs.get("epsilon", 1e-5)
        shape = (1, -1) + (1,) * (x.dim() - 2)
        scale, bias, mean, var = a[1:]
        if train:
            axes = [0] + list(range(2, x.dim()))
            n = x.numel() // x.shape[1]
            bmean = x.mean(dim=axes)
            bvar = ((x - bmean.reshape(shape)) ** 2).mean(dim=axes)
            m = bn_momentum
            buffer_updates[node["inputs"][3]] = (
                (1 - m) * mean + m * bmean).detach()
            buffer_updates[node["inputs"][4]] = (
                (1 - m) * var + m * bvar * n / (n - 1)).detach()
            mean, var = bmean, bvar
        return (x - mean.reshape(shape)) / torch.sqrt(
            var.reshape(shape) + eps) * scale.reshape(shape) + \
            bias.reshape(shape)
    if op == "layer_norm":
        axis = _axis(attrs.get("axis", -1), x.dim())
        eps = attrs.get("epsilon", 1e-5)
        dims = tuple(range(axis, x.dim()))
        mean = x.mean(dim=dims, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=dims, keepdim=True)
        return (x - mean) / torch.sqrt(var + eps) * a[1] + a[2]
    if op == "softmax":
        return torch.softmax(x, dim=attrs.get("axis", -1))
    if op == "log_softmax":
        return torch.log_softmax(x, dim=attrs.get("axis", -1))
    if op.startswith("reduce_"):
        axes = attrs.get("axes", list(range(x.dim())))
        axes = [_axis(v, x.dim()) for v in axes]
        keep = attrs.get("keepdims", True)
        if op == "reduce_sum":
            return torch.sum(x, dim=axes, keepdim=keep)
        if op == "reduce_mean":
            return torch.mean(x, dim=axes, keepdim=keep)
        return torch.amax(x, dim=axes, keepdim=keep)
    if op == "reshape":
        return x.reshape(attrs["shape"])
    if op == "transpose":
        return x.permute(attrs.get("perm", list(range(x.dim()))[::-1]))
    if op == "concat":
        return torch.cat(a, dim=attrs["axis"])
    if op == "slice":
        starts, ends = attrs["starts"], attrs["ends"]
        axes = attrs.get("axes", list(range(len(starts))))
        steps = attrs.get("steps", [1] * len(starts))
        index = [slice(None)] * x.dim()
        for s, e, ax, st in zip(starts, ends, axes, steps):
            index[_axis(ax, x.dim())] = slice(s, e, st)
        return x[tuple(index)]
    if op == "gather":
        axis = _axis(attrs.get("axis", 0), x.dim())
        n = x.shape[axis]
        idx = a[1].long()
        idx = torch.clamp(torch.where(idx < 0, idx + n, idx), 0, n - 1)
        flat = torch.index_select(x, axis, idx.reshape(-1))
        return flat.reshape(x.shape[:axis] + idx.shape + x.shape[axis + 1:])
    if op == "pad":
        p = attrs["pads"]
        r = x.dim()
        torch_pads = []
        for d in reversed(range(r)):
            torch_pads += [p[d], p[d + r]]
        return F.pad(x, torch_pads, value=attrs.get("value", 0.0))
    if op == "cast":
        to = attrs["to"]
        if to == "bool":
            return x != 0
        if to in ("i32", "i64") and x.is_floating_point():
            x = torch.trunc(x)
        return x.to({"f32": x.dtype if x.is_floating_point() else
                     torch.get_default_dtype(),
                     "i32": torch.int32, "i64": torch.int64}[to])
    if op == "compare":
        fn = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
              "gt": torch.gt, "ge": torch.ge}[attrs["predicate"]]
        return fn(a[0], a[1])
    if op == "select":
        return torch.where(a[0], a[1], a[2])
    raise NotImplementedError(op)


def topo_nodes(nodes, known):
    """Nodes in dependency order (the format allows any order)."""
    known = set(known)
    pending, order = list(nodes), []
    while pending:
        rest = []
        for n in pending:
            if all(i in known for i in n["inputs"]):
                order.append(n)
                known.add(n["outputs"][0])
            else:
                rest.append(n)
        assert len(rest) < len(pending), "cycle or unknown value"
        pending = rest
    return order


def forward(model, weights, inputs, train=False, dtype=torch.float64):
    """Evaluates the graph. `weights` and `inputs` map names to torch
    tensors or numpy arrays (float ones are converted to `dtype` unless they
    already are tensors). Returns ({output: tensor}, {buffer: new value}),
    the second non-empty only for `train` with batch_norm."""
    env = {}

    def tensor(v):
        if isinstance(v, torch.Tensor):
            return v
        t = torch.from_numpy(np.asarray(v))
        return t.to(dtype) if t.is_floating_point() else t

    for n, v in list(weights.items()) + list(inputs.items()):
        env[n] = tensor(v)
    bn_momentum = model.batch_norm_momentum() if model.training else 0.1
    updates = {}
    for node in topo_nodes(model.nodes, env):
        args = [env[i] for i in node["inputs"]]
        env[node["outputs"][0]] = eval_node(node, args, train, bn_momentum,
                                            updates)
    return {n: env[n] for n in model.outputs}, updates


def loss_of(model, outputs, batch):
    """The training loss (a scalar tensor) from forward()'s outputs and the
    batch's label/target array(s) in `batch`."""
    loss = model.training["loss"]
    out = outputs[loss["output"]]
    if loss["type"] == "softmax_cross_entropy":
        labels = torch.as_tensor(np.asarray(batch[loss["labels"]])).long()
        return F.cross_entropy(out, labels)
    if loss["type"] == "mse":
        target = batch[loss["target"]]
        if not isinstance(target, torch.Tensor):
            target = torch.from_numpy(np.asarray(target)).to(out.dtype)
        return F.mse_loss(out, target)
    raise NotImplementedError(loss["type"])
