#!/usr/bin/python3
"""Generates the gradient references of test/e2e/train-grads.test.

For each case this writes test/e2e/Inputs/grad_refs/<case>/:
  model.json           the graph with a training section: one batch of N,
                       plain SGD with lr 1, init "weights", so that after one
                       step from the model's weights grad = w_before - w_after
  weights.safetensors  the initial weights (the model's weights_file)
  <input>.npy          the batch (f32 [N, ...])
  label.npy/target.npy the labels (i64 [N]) or the mse target (f32)
  loss.npy             the loss of that batch at the initial weights (f64)
  grad/<weight>.npy    d loss / d weight for every trainable weight (f32)
  buffer/<name>.npy    batch_norm running statistics after the step (f32)

The references are PyTorch autograd in float64 through an interpreter of the
model.json ops (models/mlc_torch.py), never mlc. The loss is a batch mean
and batch_norm uses batch statistics, so none of it depends on the order of
the batch's rows (mlc-run --train shuffles them).

Cases:
  cnn          conv2d (pad 1, no bias: batch_norm would cancel its
               gradient) -> batch_norm (training statistics, running averages
               with momentum 0.25) -> relu -> maxpool2d 2x2 -> conv2d (bias,
               stride 2) -> relu -> reshape [-1, 24] ->
               matmul + bias -> softmax_cross_entropy; default trainable set
  transformer  models/transformer (pre-LN encoder block: layer_norm,
               attention with reshape/transpose/softmax, exact gelu, ...)
               at batch 4 (its batch reshapes rewritten to -1), mse loss
               against a random target; `trainable` lists every weight but
               the constant attention scale
  volume       conv3d (pads 1) -> batch_norm over a volume -> relu ->
               maxpool3d 2x2x2 -> conv_transpose3d (stride 2, bias) ->
               relu -> avgpool3d [2,3,3] -> reshape to [-1, 3, 8] ->
               conv1d (pads 1, bias) -> relu -> maxpool1d 2 -> avgpool1d
               (pads [1, 0], stride 1, padding not counted) ->
               conv_transpose1d (stride 2, pads 1, output_padding 1) ->
               reshape [-1, 16] -> matmul + bias -> softmax_cross_entropy

usage: /usr/bin/python3 test/e2e/gen_grad_refs.py [--self-test]
  --self-test  also simulates mlc with a float32 PyTorch step on a shuffled
               batch and checks that check_grads.py accepts it, and that it
               rejects a slightly wrong gradient or running statistic.
Needs numpy and torch; re-running it reproduces the files byte for byte.
"""

import copy
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "Inputs", "grad_refs")
sys.path.insert(0, os.path.join(ROOT, "models"))
import mlc_torch  # noqa: E402

# Pre-activations of relu and maxpool's winners must be at least this far
# from a kink, so that float32 rounding in mlc cannot pick another branch.
MARGIN = 1e-5


def json_value(v):
    return json.dumps(v, separators=(", ", ": "))


def write_model_json(path, m):
    """model.json in the bundled models' layout: one line per entry."""
    lines = ["{", '  "version": 1,', '  "name": %s,' % json_value(m["name"]),
             '  "weights_file": %s,' % json_value(m["weights_file"]),
             '  "inputs": [',
             ",\n".join("    " + json_value(i) for i in m["inputs"]),
             "  ],",
             '  "outputs": %s,' % json_value(m["outputs"]),
             '  "weights": [',
             ",\n".join("    " + json_value(w) for w in m["weights"]),
             "  ],",
             '  "nodes": [',
             ",\n".join("    " + json_value(n) for n in m["nodes"]),
             "  ],",
             '  "training": {']
    t = m["training"]
    lines.append(",\n".join("    %s: %s" % (json_value(k), json_value(v))
                            for k, v in t.items()))
    lines += ["  }", "}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


#===------------------------------------------------------------------------===#
# Cases: (model dict, weights {name: f32 array}, batch {name: array})
#===------------------------------------------------------------------------===#

def classifier_model(name, x_shape, weights, nodes, n):
    """A model.json dict: input x, output logits, softmax cross-entropy on
    labels, plain SGD with lr 1 from the given weights, batch_norm momentum
    0.25."""
    return {
        "name": name, "weights_file": "weights.safetensors",
        "inputs": [{"name": "x", "dtype": "f32", "shape": x_shape}],
        "outputs": ["logits"],
        "weights": [{"name": k, "dtype": "f32", "shape": list(v.shape)}
                    for k, v in weights.items()],
        "nodes": nodes,
        "training": {
            "batch_size": n,
            "loss": {"type": "softmax_cross_entropy", "output": "logits",
                     "labels": "label"},
            "optimizer": {"type": "sgd", "lr": 1.0},
            "init": {"method": "weights"},
            "batch_norm_momentum": 0.25,
        },
    }


def cnn_case():
    rng = np.random.default_rng(10)
    n, classes = 8, 5

    def u(shape, fan_in):
        b = 1 / np.sqrt(fan_in)
        return rng.uniform(-b, b, size=shape).astype(np.float32)

    weights = {
        "conv1.w": u([4, 3, 3, 3], 27),
        "bn.scale": (1 + 0.3 * rng.standard_normal(4)).astype(np.float32),
        "bn.bias": (0.2 * rng.standard_normal(4)).astype(np.float32),
        "bn.mean": (0.3 * rng.standard_normal(4)).astype(np.float32),
        "bn.var": (0.5 + rng.random(4)).astype(np.float32),
        "conv2.w": u([6, 4, 3, 3], 36),
        "conv2.b": u([6], 36),
        "fc.w": u([24, classes], 24),
        "fc.b": u([classes], 24),
    }
    nodes = [
        {"op": "conv2d", "name": "conv1",
         "inputs": ["x", "conv1.w"], "outputs": ["c1"],
         "attrs": {"pads": [1, 1, 1, 1]}},
        {"op": "batch_norm", "name": "bn",
         "inputs": ["c1", "bn.scale", "bn.bias", "bn.mean", "bn.var"],
         "outputs": ["b1"], "attrs": {"epsilon": 1e-5}},
        {"op": "relu", "inputs": ["b1"], "outputs": ["r1"]},
        {"op": "maxpool2d", "name": "pool", "inputs": ["r1"],
         "outputs": ["p1"], "attrs": {"kernel": [2, 2], "strides": [2, 2]}},
        {"op": "conv2d", "name": "conv2",
         "inputs": ["p1", "conv2.w", "conv2.b"],
         "outputs": ["c2"], "attrs": {"strides": [2, 2],
                                      "pads": [1, 1, 1, 1]}},
        {"op": "relu", "inputs": ["c2"], "outputs": ["r2"]},
        {"op": "reshape", "inputs": ["r2"], "outputs": ["flat"],
         "attrs": {"shape": [-1, 24]}},
        {"op": "matmul", "name": "fc", "inputs": ["flat", "fc.w"],
         "outputs": ["h"]},
        {"op": "add", "inputs": ["h", "fc.b"], "outputs": ["logits"]},
    ]
    model = classifier_model("grad_cnn", [1, 3, 8, 8], weights, nodes, n)
    batch = {"x": rng.standard_normal((n, 3, 8, 8)).astype(np.float32),
             "label": rng.integers(0, classes, size=n).astype(np.int64)}
    return model, weights, batch


def transformer_case():
    src = os.path.join(ROOT, "models", "transformer", "model.json")
    ref = mlc_torch.Model(src)
    n = 4
    m = copy.deepcopy(ref.json)
    m["name"] = "grad_transformer"
    m["weights_file"] = "weights.safetensors"
    for w in m["weights"]:
        w.pop("data", None)
    m["inputs"] = [{"name": "x", "dtype": "f32", "shape": [1, 16, 64]}]
    for node in m["nodes"]:
        if node["op"] == "reshape":
            shape = node["attrs"]["shape"]
            assert shape[0] == 1, node
            node["attrs"]["shape"] = [-1] + shape[1:]
    m["training"] = {
        "batch_size": n,
        "loss": {"type": "mse", "output": "y", "target": "target"},
        "optimizer": {"type": "sgd", "lr": 1.0},
        "init": {"method": "weights"},
        "trainable": [w["name"] for w in m["weights"]
                      if w["name"] != "attn.scale"],
    }
    weights = {k: v for k, v in ref.weights.items()}
    # The copy computes what models/transformer computes.
    with open(os.path.join(ROOT, "models", "transformer", "inputs",
                           "x.npy"), "rb") as f:
        x1 = np.load(f)
    copied = mlc_torch.Model(src, load_weights=False, json_obj=m)
    got, _ = mlc_torch.forward(copied, weights, {"x": x1})
    want = np.load(os.path.join(ROOT, "models", "transformer", "expected",
                                "y.npy"))
    np.testing.assert_allclose(got["y"].numpy(), want, rtol=1e-4, atol=1e-5)

    rng = np.random.default_rng(11)
    batch = {"x": rng.standard_normal((n, 16, 64)).astype(np.float32),
             "target": rng.standard_normal((n, 16, 64)).astype(np.float32)}
    return m, weights, batch


def volume_case():
    """3-D and 1-D window ops and their transposes in one model."""
    rng = np.random.default_rng(12)
    n, classes = 4, 5

    def u(shape, fan_in):
        b = 1 / np.sqrt(fan_in)
        return rng.uniform(-b, b, size=shape).astype(np.float32)

    weights = {
        "c3.w": u([4, 2, 3, 3, 3], 54),
        "bn.scale": (1 + 0.3 * rng.standard_normal(4)).astype(np.float32),
        "bn.bias": (0.2 * rng.standard_normal(4)).astype(np.float32),
        "bn.mean": (0.3 * rng.standard_normal(4)).astype(np.float32),
        "bn.var": (0.5 + rng.random(4)).astype(np.float32),
        "t3.w": u([4, 3, 2, 2, 2], 24),
        "t3.b": u([3], 24),
        "c1.w": u([5, 3, 3], 9),
        "c1.b": u([5], 9),
        "t1.w": u([5, 2, 3], 6),
        "t1.b": u([2], 6),
        "fc.w": u([16, classes], 16),
        "fc.b": u([classes], 16),
    }
    nodes = [
        {"op": "conv3d", "name": "c3", "inputs": ["x", "c3.w"],
         "outputs": ["a1"], "attrs": {"pads": [1, 1, 1, 1, 1, 1]}},
        {"op": "batch_norm", "name": "bn",
         "inputs": ["a1", "bn.scale", "bn.bias", "bn.mean", "bn.var"],
         "outputs": ["a2"], "attrs": {"epsilon": 1e-5}},
        {"op": "relu", "inputs": ["a2"], "outputs": ["a3"]},
        {"op": "maxpool3d", "name": "mp3", "inputs": ["a3"],
         "outputs": ["a4"], "attrs": {"kernel": [2, 2, 2]}},
        {"op": "conv_transpose3d", "name": "t3",
         "inputs": ["a4", "t3.w", "t3.b"], "outputs": ["a5"],
         "attrs": {"strides": [2, 2, 2]}},
        {"op": "relu", "inputs": ["a5"], "outputs": ["a6"]},
        {"op": "avgpool3d", "name": "ap3", "inputs": ["a6"],
         "outputs": ["a7"], "attrs": {"kernel": [2, 3, 3]}},
        {"op": "reshape", "inputs": ["a7"], "outputs": ["a8"],
         "attrs": {"shape": [-1, 3, 8]}},
        {"op": "conv1d", "name": "c1", "inputs": ["a8", "c1.w", "c1.b"],
         "outputs": ["b1"], "attrs": {"pads": [1, 1]}},
        {"op": "relu", "inputs": ["b1"], "outputs": ["b2"]},
        {"op": "maxpool1d", "name": "mp1", "inputs": ["b2"],
         "outputs": ["b3"], "attrs": {"kernel": [2]}},
        {"op": "avgpool1d", "name": "ap1", "inputs": ["b3"],
         "outputs": ["b4"], "attrs": {"kernel": [2], "strides": [1],
                                      "pads": [1, 0]}},
        {"op": "conv_transpose1d", "name": "t1",
         "inputs": ["b4", "t1.w", "t1.b"], "outputs": ["b5"],
         "attrs": {"strides": [2], "pads": [1, 1], "output_padding": [1]}},
        {"op": "reshape", "inputs": ["b5"], "outputs": ["flat"],
         "attrs": {"shape": [-1, 16]}},
        {"op": "matmul", "name": "fc", "inputs": ["flat", "fc.w"],
         "outputs": ["h"]},
        {"op": "add", "inputs": ["h", "fc.b"], "outputs": ["logits"]},
    ]
    model = classifier_model("grad_volume", [1, 2, 4, 6, 6], weights, nodes, n)
    batch = {"x": rng.standard_normal((n, 2, 4, 6, 6)).astype(np.float32),
             "label": rng.integers(0, classes, size=n).astype(np.int64)}
    return model, weights, batch


CASES = {"cnn": cnn_case, "transformer": transformer_case,
         "volume": volume_case}


#===------------------------------------------------------------------------===#
# References
#===------------------------------------------------------------------------===#

def load_case_model(d):
    return mlc_torch.Model(os.path.join(d, "model.json"))


def step(model, weights, batch, dtype, perm=None):
    """One training step's loss, gradients (trainable weights) and new
    buffers, with autograd in `dtype`. `perm` reorders the batch rows."""
    if perm is not None:
        batch = {k: v[perm] for k, v in batch.items()}
    trainable = set(model.trainable())
    leaves = {}
    for name, a in weights.items():
        t = torch.from_numpy(np.array(a))
        if t.is_floating_point():
            t = t.to(dtype)
        if name in trainable:
            t.requires_grad_(True)
        leaves[name] = t
    inputs = {n: batch[n] for n, _, _ in model.inputs}
    outputs, buffers = mlc_torch.forward(model, leaves, inputs, train=True,
                                         dtype=dtype)
    loss = mlc_torch.loss_of(model, outputs, batch)
    loss.backward()
    grads = {n: leaves[n].grad.numpy() for n in model.trainable()}
    return loss.item(), grads, {n: v.numpy() for n, v in buffers.items()}


def check_margins(model, weights, batch):
    """Relu inputs and maxpool windows keep away from ties and zero."""
    env = {}
    for n, a in list(weights.items()) + [(k, batch[k]) for k, _, _ in
                                         model.inputs]:
        env[n] = torch.from_numpy(np.array(a)).double()
    for node in mlc_torch.topo_nodes(model.nodes, env):
        args = [env[i] for i in node["inputs"]]
        x = args[0]
        if node["op"] == "relu":
            m = x.abs().min().item()
            assert m > MARGIN, "relu input %g from 0" % m
        if node["op"] in ("maxpool1d", "maxpool2d", "maxpool3d"):
            # Windows of kernel == stride, no padding.
            k = node["attrs"]["kernel"]
            assert node["attrs"].get("strides", k) == k
            assert not any(node["attrs"].get("pads", [0]))
            win = x
            for i, ki in enumerate(k):
                win = win.unfold(2 + i, ki, ki)
            win = win.reshape(-1, math.prod(k))
            top2 = torch.topk(win, 2, dim=1).values
            positive = top2[:, 0] > 0  # all-relu-zero windows carry no grad
            gap = (top2[:, 0] - top2[:, 1])[positive].min().item()
            assert gap > MARGIN, "maxpool window gap %g" % gap
        env[node["outputs"][0]] = mlc_torch.eval_node(
            node, args, True, model.batch_norm_momentum(), {})


def generate(name):
    model_json, weights, batch = CASES[name]()
    d = os.path.join(OUT, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(os.path.join(d, "grad"))
    write_model_json(os.path.join(d, "model.json"), model_json)
    mlc_torch.write_safetensors(os.path.join(d, "weights.safetensors"),
                                weights)
    for k, v in batch.items():
        np.save(os.path.join(d, k + ".npy"), v)
    model = load_case_model(d)
    check_margins(model, weights, batch)
    loss, grads, buffers = step(model, weights, batch, torch.float64)
    np.save(os.path.join(d, "loss.npy"), np.float64(loss))
    for n, g in grads.items():
        np.save(os.path.join(d, "grad", n + ".npy"), g.astype(np.float32))
    if buffers:
        os.makedirs(os.path.join(d, "buffer"))
        for n, b in buffers.items():
            np.save(os.path.join(d, "buffer", n + ".npy"),
                    b.astype(np.float32))
    size = sum(os.path.getsize(os.path.join(r, f))
               for r, _, fs in os.walk(d) for f in fs)
    print("%-12s loss %.6f, %d trainable weights, %d buffers, %d bytes" % (
        name, loss, len(grads), len(buffers), size))
    return d


#===------------------------------------------------------------------------===#
# Self-test of check_grads.py with a float32 stand-in for mlc
#===------------------------------------------------------------------------===#

def simulate_mlc(d, path, corrupt=None):
    """Writes after.safetensors the way `mlc-run --train --epochs 1
    --save-weights` would: one float32 SGD step on a shuffled batch.
    corrupt: None, ("grad", name, factor) or ("buffer", name, factor)."""
    model = load_case_model(d)
    weights = mlc_torch.read_safetensors(os.path.join(d,
                                                      "weights.safetensors"))
    batch = {n: np.load(os.path.join(d, n + ".npy"))
             for n, _, _ in model.training_inputs()}
    loss_cfg = model.training["loss"]
    if loss_cfg["type"] == "mse":
        batch[loss_cfg["target"]] = np.load(
            os.path.join(d, loss_cfg["target"] + ".npy"))
    n = model.training["batch_size"]
    perm = np.random.default_rng(5).permutation(n)
    loss, grads, buffers = step(model, weights, batch, torch.float32, perm)
    lr = np.float32(model.optimizer()["lr"])
    after = {}
    for name, w in weights.items():
        if name in grads:
            g = grads[name]
            if corrupt and corrupt[0] == "grad" and corrupt[1] == name:
                g = g * np.float32(corrupt[2])
            after[name] = (w - lr * g).astype(np.float32)
        elif name in buffers:
            b = buffers[name].astype(np.float32)
            if corrupt and corrupt[0] == "buffer" and corrupt[1] == name:
                b = b * np.float32(corrupt[2])
            after[name] = b
        else:
            after[name] = w
    mlc_torch.write_safetensors(path, after)
    return loss


def self_test(d):
    check = os.path.join(HERE, "check_grads.py")
    model = load_case_model(d)
    first = model.trainable()[0]
    runs = [(None, 0), (("grad", first, 1.01), 1),
            (("grad", model.trainable()[-1], -1.0), 1)]
    if model.buffers():
        runs.append((("buffer", model.buffers()[-1], 1.01), 1))
    with tempfile.TemporaryDirectory() as tmp:
        for corrupt, want in runs:
            after = os.path.join(tmp, "after.safetensors")
            loss = simulate_mlc(d, after, corrupt)
            log = os.path.join(tmp, "log")
            with open(log, "w") as f:
                f.write("epoch 1/1  loss %.4f\n" % loss)
            r = subprocess.run([sys.executable, check, d, after, "--log", log],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            ok = (r.returncode == 0) == (want == 0)
            print("self-test %s %s: check_grads exit %d (%s)" % (
                os.path.basename(d), corrupt or "float32 step", r.returncode,
                "as expected" if ok else "WRONG"))
            if not ok or corrupt is None:
                print(r.stdout, end="")
            if not ok:
                sys.exit(1)


def main():
    torch.set_num_threads(1)
    dirs = [generate(name) for name in CASES]
    if "--self-test" in sys.argv[1:]:
        for d in dirs:
            self_test(d)


if __name__ == "__main__":
    main()
