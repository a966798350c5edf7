#!/usr/bin/env python3
"""Exports a torchvision architecture with seeded random weights to ONNX,
with an input and PyTorch's output for it (torchvision-*.test).

usage: gen_torchvision_models.py OUTDIR NAME
  swin_t   Swin-T (shifted-window attention: its masks and window slices
           have zero-size parts), 1x3x224x224, opset 17
  r3d_18   ResNet-3D-18 (video: 3-D convolutions, BatchNorm3d), a
           1x3x8x112x112 clip, opset 13
Batch-norm statistics are randomized, so that folding them is tested.
"""
import os
import sys

import numpy as np
import torch
import torchvision

MODELS = {
    "swin_t": (torchvision.models.swin_t, (1, 3, 224, 224), 17),
    "r3d_18": (torchvision.models.video.r3d_18, (1, 3, 8, 112, 112), 13),
}


def main():
    outdir, name = sys.argv[1], sys.argv[2]
    build, shape, opset = MODELS[name]
    torch.manual_seed(0)
    model = build(weights=None).eval()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=generator) * 0.1)
                m.running_var.copy_(
                    torch.rand(c, generator=generator) * 0.5 + 0.75)
    x = torch.from_numpy(
        np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        expected = model(x).numpy()
    base = os.path.join(outdir, name)
    torch.onnx.export(model, (x,), base + ".onnx", opset_version=opset,
                      input_names=["x"], output_names=["y"])
    np.save(base + ".input.npy", x.numpy())
    np.save(base + ".output.npy", expected)
    print("%s: %s -> %s, opset %d" % (name, list(shape), list(expected.shape),
                                      opset))


if __name__ == "__main__":
    main()
