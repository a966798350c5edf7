#!/usr/bin/python3
"""Creates the models of the performance benchmark (bench/perf/run.py).

  make_models.py [--out DIR] [names...]

writes, for each model (all of them when no name is given), into DIR
(default build/bench/models):
  <name>.onnx          torch.onnx.export (TorchScript exporter), opset 17,
                       eval mode, do_constant_folding=True (BatchNormalization
                       folded into the convolutions, as a deployed model is)
  <name>.in<i>.npy     the inputs (float32, seeded standard normal)
  <name>.out<i>.npy    PyTorch's outputs for them (the reference)
  <name>.json          batch, shapes, parameter count and FLOPs (2 per MAC of
                       the matmuls and convolutions)

Weights are random but seeded (torch.manual_seed(0) before each model), so the
files are the same on every run of the same torch version.

call_overhead (y = x + 1 on one float) measures what a call costs each side
(the binding, the framework's dispatch, the timer): the floor under the others.

The SGEMM models (sgemm_256, sgemm_512, sgemm_1024) are a single MatMul of two
graph inputs A[N,N] @ B[N,N]: like a call to OpenBLAS's cblas_sgemm, which gets
both operands at run time. A constant B would let a compiler pre-pack or
transform the weights at compile time, which sgemm cannot do; two inputs keep
the comparison like for like.
"""

import argparse
import io
import json
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn

# The ONNX tests' exporter already randomizes BatchNorm statistics (fresh
# BNs are the identity); the benchmark's networks use the same helper.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "test", "onnx"))
from gen_torch_models import randomize_batch_norms  # noqa: E402

OPSET = 17
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class MLP(nn.Module):
    """784 -> 200 -> ReLU -> 10."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 200)
        self.fc2 = nn.Linear(200, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class LeNet5(nn.Module):
    """LeCun et al. 1998 on 1x32x32: C1 conv 6@5x5, S2 avg pool, C3 conv
    16@5x5, S4 avg pool, C5 120, F6 84, output 10; tanh activations."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 6, 5)
        self.s2 = nn.AvgPool2d(2)
        self.c3 = nn.Conv2d(6, 16, 5)
        self.s4 = nn.AvgPool2d(2)
        self.c5 = nn.Linear(16 * 5 * 5, 120)
        self.f6 = nn.Linear(120, 84)
        self.out = nn.Linear(84, 10)

    def forward(self, x):
        x = self.s2(torch.tanh(self.c1(x)))
        x = self.s4(torch.tanh(self.c3(x)))
        x = torch.flatten(x, 1)
        x = torch.tanh(self.c5(x))
        x = torch.tanh(self.f6(x))
        return self.out(x)


class TransformerBlock(nn.Module):
    """Pre-LN encoder block: x + MHA(LN(x)); x + MLP(LN(x)) with
    nn.MultiheadAttention (d 256, 4 heads) and a GELU MLP of ratio 4."""

    def __init__(self, d=256, heads=4, ratio=4):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, dropout=0.0,
                                          batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ratio * d)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(ratio * d, d)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.fc2(self.act(self.fc1(self.ln2(x))))


class AddOne(nn.Module):
    """y = x + 1 on 1 float: what one call costs each side (binding,
    dispatch, timing), the floor under every other row."""

    def forward(self, x):
        return x + 1


class MatMul(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def resnet18():
    import torchvision
    m = torchvision.models.resnet18(weights=None)
    randomize_batch_norms(m, torch.Generator().manual_seed(1))
    return m, [(1, 3, 224, 224)]


def resnet18_periodic():
    """ResNet-18 whose convolution filters repeat: filter (k, c) is one of
    61 random 3x3 (7x7, 1x1) filters, number (k + 3c) mod 61. Timing does
    not depend on the values, but the model.so then compresses about 20x:
    with its Winograd filters it is 180 MB, more than a lent GPU machine's
    call carries (scripts/gpu-check.sh). Filters still differ along k and c
    (unless c differs by a multiple of 61), so the check against PyTorch
    still catches mixed-up channels."""
    m, shapes = resnet18()
    gen = torch.Generator().manual_seed(6)
    with torch.no_grad():
        for conv in m.modules():
            if not isinstance(conv, nn.Conv2d):
                continue
            co, ci, kh, kw = conv.weight.shape
            std = (2.0 / (ci * kh * kw)) ** 0.5
            bank = torch.randn(61, kh, kw, generator=gen) * std
            idx = (torch.arange(co)[:, None] + 3 * torch.arange(ci)[None]) % 61
            conv.weight.copy_(bank[idx])
    return m, shapes


def mobilenet_v2():
    import torchvision
    m = torchvision.models.mobilenet_v2(weights=None)
    randomize_batch_norms(m, torch.Generator().manual_seed(2))
    return m, [(1, 3, 224, 224)]


class LRASPPOut(nn.Module):
    """torchvision's LR-ASPP MobileNetV3-Large, its 'out' output only."""

    def __init__(self):
        super().__init__()
        from torchvision.models.segmentation import lraspp_mobilenet_v3_large
        self.net = lraspp_mobilenet_v3_large(weights=None,
                                             weights_backbone=None,
                                             num_classes=21)

    def forward(self, x):
        return self.net(x)["out"]


def lraspp():
    m = LRASPPOut()
    randomize_batch_norms(m, torch.Generator().manual_seed(4))
    return m, [(1, 3, 256, 256)]


class UNet(nn.Module):
    """A small UNet: three levels of two 3x3 Conv-BN-ReLU, max-pool down,
    ConvTranspose2d (kernel = stride = 2) up, torch.cat skips."""

    def __init__(self, c=16, classes=2):
        super().__init__()

        def block(i, o):
            return nn.Sequential(
                nn.Conv2d(i, o, 3, padding=1, bias=False),
                nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                nn.Conv2d(o, o, 3, padding=1, bias=False),
                nn.BatchNorm2d(o), nn.ReLU(inplace=True))

        self.down = nn.ModuleList([block(3, c), block(c, 2 * c),
                                   block(2 * c, 4 * c)])
        self.mid = block(4 * c, 8 * c)
        self.ups = nn.ModuleList([nn.ConvTranspose2d(8 * c, 4 * c, 2, 2),
                                  nn.ConvTranspose2d(4 * c, 2 * c, 2, 2),
                                  nn.ConvTranspose2d(2 * c, c, 2, 2)])
        self.up_blocks = nn.ModuleList([block(8 * c, 4 * c),
                                        block(4 * c, 2 * c),
                                        block(2 * c, c)])
        self.head = nn.Conv2d(c, classes, 1)

    def forward(self, x):
        skips = []
        for b in self.down:
            x = b(x)
            skips.append(x)
            x = nn.functional.max_pool2d(x, 2)
        x = self.mid(x)
        for up, b, s in zip(self.ups, self.up_blocks, reversed(skips)):
            x = b(torch.cat([up(x), s], 1))
        return self.head(x)


def unet():
    m = UNet()
    randomize_batch_norms(m, torch.Generator().manual_seed(5))
    return m, [(1, 3, 256, 256)]


def sgemm(n):
    return lambda: (MatMul(), [(n, n), (n, n)])


# name -> (builder returning (module, input shapes), short description)
MODELS = {
    "call_overhead": (lambda: (AddOne(), [(1,)]), "y = x + 1, 1 float"),
    "mlp_b1": (lambda: (MLP(), [(1, 784)]), "MLP 784-200-10"),
    "mlp_b64": (lambda: (MLP(), [(64, 784)]), "MLP 784-200-10"),
    "lenet5_b8": (lambda: (LeNet5(), [(8, 1, 32, 32)]), "LeNet-5 1x32x32"),
    "resnet18": (resnet18, "ResNet-18 3x224x224"),
    "mobilenet_v2": (mobilenet_v2, "MobileNetV2 3x224x224"),
    "transformer": (lambda: (TransformerBlock(), [(1, 128, 256)]),
                    "pre-LN block, seq 128, d 256, 4 heads"),
    "lraspp": (lraspp, "LR-ASPP MobileNetV3-Large 3x256x256, 21 classes"),
    "unet": (unet, "UNet, 3 levels, 16-128 channels, 3x256x256"),
    "sgemm_256": (sgemm(256), "SGEMM 256"),
    "sgemm_512": (sgemm(512), "SGEMM 512"),
    "sgemm_1024": (sgemm(1024), "SGEMM 1024"),
    # The GPU benchmark's (bench/cuda/run.py); not made by default.
    "resnet18_b32": (lambda: (resnet18_periodic()[0], [(32, 3, 224, 224)]),
                     "ResNet-18 3x224x224, batch 32, repeating filters"),
    "transformer_b8": (lambda: (TransformerBlock(), [(8, 128, 256)]),
                       "pre-LN block, seq 128, d 256, 4 heads, batch 8"),
    "sgemm_4096": (sgemm(4096), "SGEMM 4096"),
    "conv3x3_b32": (lambda: (nn.Conv2d(128, 128, 3, padding=1),
                             [(32, 128, 28, 28)]),
                    "3x3 conv 128->128 on 28x28, batch 32"),
}
GPU_MODELS = ("resnet18_b32", "transformer_b8", "sgemm_4096", "conv3x3_b32")


def count_flops(model, inputs):
    """2 x multiply-accumulates of Conv2d, ConvTranspose2d, Linear and
    matmuls (attention's included), counted with forward hooks and a matmul
    wrapper (interpolation is not counted)."""
    total = [0]
    hooks = []

    def conv_hook(m, inp, out):
        k = m.weight.shape[1] * m.weight.shape[2] * m.weight.shape[3]
        total[0] += 2 * out.numel() * k

    def linear_hook(m, inp, out):
        total[0] += 2 * out.numel() * m.in_features

    def conv_transpose_hook(m, inp, out):
        w = m.weight.shape  # [Ci, Co / groups, KH, KW]
        total[0] += 2 * inp[0].numel() * w[1] * w[2] * w[3]

    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            hooks.append(m.register_forward_hook(conv_hook))
        elif isinstance(m, nn.ConvTranspose2d):
            hooks.append(m.register_forward_hook(conv_transpose_hook))
        elif isinstance(m, nn.Linear):
            hooks.append(m.register_forward_hook(linear_hook))
    if isinstance(model, MatMul):
        a, b = inputs
        total[0] += 2 * a.shape[0] * a.shape[1] * b.shape[1]
    with torch.no_grad():
        model(*inputs)
    for h in hooks:
        h.remove()
    if isinstance(model, TransformerBlock):
        # q @ k^T and attn @ v inside nn.MultiheadAttention (its in/out
        # projections are not nn.Linear calls), plus those projections.
        b, s, d = inputs[0].shape
        total[0] += 2 * 2 * b * s * s * d       # two batched matmuls
        total[0] += 2 * b * s * d * 4 * d       # qkv (3d) and out (d) proj
    return total[0]


def generate(name, outdir):
    torch.manual_seed(0)
    build, desc = MODELS[name]
    model, shapes = build()
    model.eval()
    rng = np.random.default_rng(0)
    xs = [torch.from_numpy(rng.standard_normal(s).astype(np.float32))
          for s in shapes]
    with torch.no_grad():
        ys = model(*xs)
    ys = [ys] if isinstance(ys, torch.Tensor) else list(ys)
    ys = [y.numpy().astype(np.float32) for y in ys]

    in_names = ["x"] if len(xs) == 1 else ["a", "b"]
    out_names = ["y%d" % i if len(ys) > 1 else "y" for i in range(len(ys))]
    buf = io.BytesIO()
    torch.onnx.export(model, tuple(xs), buf, opset_version=OPSET,
                      do_constant_folding=True, input_names=in_names,
                      output_names=out_names,
                      training=torch.onnx.TrainingMode.EVAL)
    proto = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(proto, full_check=True)
    with torch.no_grad():
        again = model(*xs)
    again = [again] if isinstance(again, torch.Tensor) else list(again)
    for y, z in zip(ys, again):
        if not np.array_equal(y, z.numpy()):
            sys.exit("make_models.py: %s: output changed by exporting" % name)
        if not np.isfinite(y).all():
            sys.exit("make_models.py: %s: non-finite reference" % name)

    base = os.path.join(outdir, name)
    onnx.save(proto, base + ".onnx")
    for i, x in enumerate(xs):
        np.save("%s.in%d.npy" % (base, i), x.numpy())
    for i, y in enumerate(ys):
        np.save("%s.out%d.npy" % (base, i), y)
    meta = {
        "name": name, "description": desc, "batch": shapes[0][0],
        "inputs": [[n, list(s)] for n, s in zip(in_names, shapes)],
        "outputs": [[n, list(y.shape)] for n, y in zip(out_names, ys)],
        "params": sum(p.numel() for p in model.parameters()),
        "flops": count_flops(model, xs), "opset": OPSET,
        "onnx_nodes": len(proto.graph.node),
        "onnx_ops": sorted({n.op_type for n in proto.graph.node}),
        "torch": torch.__version__,
    }
    with open(base + ".json", "w") as f:
        json.dump(meta, f, indent=1)
    print("%-13s %-40s %4d nodes, %.3f GFLOP" %
          (name, desc, meta["onnx_nodes"], meta["flops"] / 1e9))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench",
                                                  "models"))
    ap.add_argument("names", nargs="*", metavar="name",
                    help="models (default: all of %s)" % ", ".join(
                        n for n in MODELS if n not in GPU_MODELS))
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        ap.error("unknown model(s) %s" % ", ".join(unknown))
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    for name in args.names or [n for n in MODELS if n not in GPU_MODELS]:
        generate(name, args.out)


if __name__ == "__main__":
    main()
