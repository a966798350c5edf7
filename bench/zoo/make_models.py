#!/usr/bin/python3
"""Creates the networks of the model-zoo benchmark (bench/zoo/run.py).

  make_models.py [--out DIR] [--opset 17] [names...]

The zoo extends bench/perf/make_models.py with 20 networks of torchvision
0.14 and torch.nn, and exports them with that script's generate(): the same
files (<name>.onnx, .in<i>.npy, .out<i>.npy = PyTorch's reference, .json),
the same recipe (torch.manual_seed(0) before each model, `weights=None`,
BatchNorm statistics randomized with test/onnx/gen_torch_models.py's
randomize_batch_norms, eval mode, torch.onnx.export with the TorchScript
exporter and do_constant_folding=True, seeded standard-normal inputs) and the
same FLOP count (count_flops: 2 per multiply-accumulate of Conv2d and Linear),
extended here to ConvTranspose2d and to attention (nn.MultiheadAttention and
nn.TransformerEncoderLayer, whose inference fast path bypasses the submodules
the hooks watch). Each model's .json also gets its `family`:

  plain         vgg11_bn, resnet18, resnet18_b8 (batch 8), resnet50
  grouped       resnext50_32x4d, regnet_y_400mf
  depthwise     mobilenet_v2, mobilenet_v3_large, efficientnet_b0,
                mnasnet1_0, shufflenet_v2_x1_0
  concat        densenet121, googlenet, inception_v3 (299x299), squeezenet1_1
  modern        convnext_tiny
  segmentation  lraspp_mobilenet_v3_large (256x256, 21 classes, output 'out'),
                unet (4 levels, ConvTranspose2d upsampling, 128x128)
  transformer   vit_s16 (ViT-S/16: 12 layers, 6 heads, d 384, MLP 1536),
                bert_enc (nn.TransformerEncoder: 4 post-LN layers, d 256,
                4 heads, FFN 1024, GELU, seq 128)

The inputs are 1x3x224x224 unless said otherwise. DIR defaults to
build/bench-zoo/models/opset<OPSET>; run.py passes its own.
"""

import argparse
import json
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# bench/perf first: its make_models (imported here as perf_models) and the
# test helper it loads; this directory's own make_models.py is not on the way.
sys.path.insert(0, os.path.join(ROOT, "bench", "perf"))
import make_models as perf_models  # noqa: E402
from gen_torch_models import randomize_batch_norms  # noqa: E402

PERF_COUNT_FLOPS = perf_models.count_flops  # generate() gets ours below

IMAGE = (1, 3, 224, 224)


def tv(fn, seed, shape=IMAGE, module=None, **kw):
    """Builder of torchvision.models[.module].fn(weights=None, **kw) with its
    BatchNorms randomized by a generator seeded with `seed`."""
    def build():
        import torchvision
        ns = getattr(torchvision.models, module) if module else \
            torchvision.models
        m = getattr(ns, fn)(weights=None, **kw)
        randomize_batch_norms(m, torch.Generator().manual_seed(seed))
        return m, [shape]
    return build


class OutOnly(nn.Module):
    """A torchvision segmentation model reduced to its 'out' tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def lraspp():
    m, shapes = tv("lraspp_mobilenet_v3_large", 16, (1, 3, 256, 256),
                   module="segmentation", weights_backbone=None,
                   num_classes=21)()
    return OutOnly(m), shapes


def double_conv(cin, cout):
    """(3x3 convolution without bias, BatchNorm, ReLU) twice."""
    layers = []
    for c in (cin, cout):
        layers += [nn.Conv2d(c, cout, 3, padding=1, bias=False),
                   nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers)


class UNet(nn.Module):
    """Ronneberger et al. 2015, small: 4 levels of two 3x3 conv-BN-ReLU
    (16, 32, 64, 128 channels, bottleneck 256) with 2x2 max pooling down,
    ConvTranspose2d(kernel 2, stride 2) up, torch.cat skip connections and a
    1x1 convolution to `classes` maps."""

    def __init__(self, cin=3, classes=2, base=16, levels=4):
        super().__init__()
        chans = [base << i for i in range(levels)]
        self.down = nn.ModuleList()
        c = cin
        for ch in chans:
            self.down.append(double_conv(c, ch))
            c = ch
        self.pool = nn.MaxPool2d(2)
        self.bottom = double_conv(c, 2 * c)
        self.up = nn.ModuleList()
        self.dec = nn.ModuleList()
        c = 2 * c
        for ch in reversed(chans):
            self.up.append(nn.ConvTranspose2d(c, ch, 2, stride=2))
            self.dec.append(double_conv(2 * ch, ch))
            c = ch
        self.head = nn.Conv2d(c, classes, 1)

    def forward(self, x):
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottom(x)
        for up, dec, skip in zip(self.up, self.dec, reversed(skips)):
            x = dec(torch.cat([up(x), skip], dim=1))
        return self.head(x)


def unet():
    m = UNet()
    randomize_batch_norms(m, torch.Generator().manual_seed(17))
    return m, [(1, 3, 128, 128)]


def vit_s16():
    from torchvision.models.vision_transformer import VisionTransformer
    m = VisionTransformer(image_size=224, patch_size=16, num_layers=12,
                          num_heads=6, hidden_dim=384, mlp_dim=1536)
    # torchvision zero-initializes the classifier: every logit would be 0
    # and the check vacuous.
    nn.init.normal_(m.heads.head.weight, std=0.02)
    return m, [IMAGE]


def bert_enc():
    layer = nn.TransformerEncoderLayer(256, 4, dim_feedforward=1024,
                                       dropout=0.0, activation="gelu",
                                       batch_first=True)
    return nn.TransformerEncoder(layer, 4), [(1, 128, 256)]


# name -> (builder returning (module, input shapes), description), the shape
# of bench/perf/make_models.MODELS (whose generate() and run.py's torch side
# look the builders up there); FAMILY gives each one's family.
MODELS = {
    "vgg11_bn": (tv("vgg11_bn", 3), "VGG-11 with BN"),
    "resnet18": perf_models.MODELS["resnet18"],
    "resnet18_b8": (lambda: (perf_models.resnet18()[0], [(8, 3, 224, 224)]),
                    "ResNet-18, batch 8"),
    "resnet50": (tv("resnet50", 4), "ResNet-50"),
    "resnext50_32x4d": (tv("resnext50_32x4d", 5), "ResNeXt-50 32x4d"),
    "regnet_y_400mf": (tv("regnet_y_400mf", 6), "RegNetY-400MF"),
    "mobilenet_v2": perf_models.MODELS["mobilenet_v2"],
    "mobilenet_v3_large": (tv("mobilenet_v3_large", 7), "MobileNetV3-Large"),
    "efficientnet_b0": (tv("efficientnet_b0", 8), "EfficientNet-B0"),
    "mnasnet1_0": (tv("mnasnet1_0", 9), "MnasNet 1.0"),
    "shufflenet_v2_x1_0": (tv("shufflenet_v2_x1_0", 10),
                           "ShuffleNetV2 x1.0"),
    "densenet121": (tv("densenet121", 11), "DenseNet-121"),
    "googlenet": (tv("googlenet", 12, aux_logits=False, init_weights=True),
                  "GoogLeNet"),
    "inception_v3": (tv("inception_v3", 13, (1, 3, 299, 299),
                        aux_logits=False, init_weights=True),
                     "Inception v3 3x299x299"),
    "squeezenet1_1": (tv("squeezenet1_1", 14), "SqueezeNet 1.1"),
    "convnext_tiny": (tv("convnext_tiny", 15), "ConvNeXt-T"),
    "lraspp_mobilenet_v3_large": (lraspp, "LR-ASPP MobileNetV3 3x256x256"),
    "unet": (unet, "UNet 4 levels 3x128x128"),
    "vit_s16": (vit_s16, "ViT-S/16 (12 x d384, 6 heads)"),
    "bert_enc": (bert_enc, "TransformerEncoder 4 x d256, seq 128"),
}
FAMILY = {n: f for f, names in (
    ("plain", "vgg11_bn resnet18 resnet18_b8 resnet50"),
    ("grouped", "resnext50_32x4d regnet_y_400mf"),
    ("depthwise", "mobilenet_v2 mobilenet_v3_large efficientnet_b0 "
                  "mnasnet1_0 shufflenet_v2_x1_0"),
    ("concat", "densenet121 googlenet inception_v3 squeezenet1_1"),
    ("modern", "convnext_tiny"),
    ("segmentation", "lraspp_mobilenet_v3_large unet"),
    ("transformer", "vit_s16 bert_enc")) for n in names.split()}
assert set(FAMILY) == set(MODELS)


def attention_flops(b, s, d):
    """q @ k^T and attn @ v, plus the q, k, v and output projections."""
    return 2 * 2 * b * s * s * d + 2 * b * s * d * 4 * d


def count_flops(model, inputs):
    """bench/perf/make_models.count_flops plus what its hooks miss:
    ConvTranspose2d (2 x input elements x out channels/groups x kernel area),
    nn.MultiheadAttention and the nn.TransformerEncoder
    layers that ran their fused fast path (attention, and the FFN's two
    matmuls) without calling their submodules."""
    extra = [0]
    attn_ran = set()
    hooks = []

    def deconv(m, inp, out):
        k = m.weight.shape[1] * m.weight.shape[2] * m.weight.shape[3]
        extra[0] += 2 * inp[0].numel() * k

    def mha(m, inp, out):
        attn_ran.add(m)  # called with keywords (ViT): the output's shape
        s, b, d = out[0].shape
        extra[0] += attention_flops(s, b, d) if m.batch_first else \
            attention_flops(b, s, d)

    def layer_pre(m, inp):
        attn_ran.discard(m.self_attn)

    def layer(m, inp, out):
        if m.self_attn not in attn_ran:
            b, s, d = inp[0].shape
            extra[0] += attention_flops(b, s, d)
            extra[0] += 2 * 2 * b * s * d * m.linear1.out_features

    for m in model.modules():
        if isinstance(m, nn.ConvTranspose2d):
            hooks.append(m.register_forward_hook(deconv))
        elif isinstance(m, nn.MultiheadAttention):
            hooks.append(m.register_forward_hook(mha))
        elif isinstance(m, nn.TransformerEncoderLayer):
            hooks.append(m.register_forward_pre_hook(layer_pre))
            hooks.append(m.register_forward_hook(layer))
    try:
        return PERF_COUNT_FLOPS(model, inputs) + extra[0]
    finally:
        for h in hooks:
            h.remove()


def generate(name, outdir, opset):
    """bench/perf/make_models.generate() on a zoo model at `opset`, then the
    family into its .json."""
    perf_models.MODELS[name] = MODELS[name]
    perf_models.OPSET = opset
    perf_models.count_flops = count_flops
    perf_models.generate(name, outdir)
    path = os.path.join(outdir, name + ".json")
    meta = json.load(open(path))
    meta["family"] = FAMILY[name]
    with open(path, "w") as f:
        json.dump(meta, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="default build/bench-zoo/models/opset<N>")
    ap.add_argument("--opset", type=int, default=17, choices=(13, 17))
    ap.add_argument("names", nargs="*", metavar="name",
                    help="models (default: all of %s)" % ", ".join(MODELS))
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        ap.error("unknown model(s) %s" % ", ".join(unknown))
    out = args.out or os.path.join(ROOT, "build", "bench-zoo", "models",
                                   "opset%d" % args.opset)
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    for name in args.names or MODELS:
        generate(name, out, args.opset)


if __name__ == "__main__":
    main()
