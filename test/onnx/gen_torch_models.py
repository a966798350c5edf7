#!/usr/bin/python3
"""Exports small PyTorch models to ONNX for the importer's end-to-end tests.

  gen_torch_models.py OUTDIR [names...]

writes, for each model (all of them when no name is given):
  OUTDIR/<name>.onnx        torch.onnx.export, opset 13, TorchScript exporter
  OUTDIR/<name>.input.npy   the input (float32, seeded)
  OUTDIR/<name>.output.npy  PyTorch's output for it (float32, eval mode)

Weights are random but seeded (torch.manual_seed(0) before building each
model), so the files are the same on every run of the same torch version.
After exporting, the model is run again to check that exporting did not
change its output, and onnx.checker accepts the exported model.
"""

import argparse
import io
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

OPSET = 13


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

def randomize_batch_norms(model, generator):
    """Non-trivial BatchNorm statistics and affine parameters, so folding BN
    into the convolution is really tested (fresh BNs are the identity)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=generator) * 0.1)
                m.running_var.copy_(
                    torch.rand(c, generator=generator) * 0.5 + 0.75)
                m.weight.copy_(torch.rand(c, generator=generator) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(c, generator=generator) * 0.1)


def make_resnet18():
    import torchvision
    try:
        model = torchvision.models.resnet18(weights=None)
    except TypeError:  # torchvision < 0.13
        model = torchvision.models.resnet18(pretrained=False)
    randomize_batch_norms(model, torch.Generator().manual_seed(1))
    return model, (1, 3, 224, 224)


class TransformerBlock(nn.Module):
    """Pre-LN encoder block: x + MHA(LN(x)); x + MLP(LN(x)), with a fused qkv
    projection split into q, k, v, explicit head reshapes and an Erf GELU."""

    def __init__(self, d=64, heads=4, hidden=128):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        b, s, d = x.shape
        h, hd = self.heads, d // self.heads
        q, k, v = torch.split(self.qkv(self.ln1(x)), d, dim=-1)
        q = q.reshape(b, s, h, hd).transpose(1, 2)
        k = k.reshape(b, s, h, hd).transpose(1, 2)
        v = v.reshape(b, s, h, hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (hd ** 0.5)
        attn = torch.matmul(F.softmax(scores, dim=-1), v)
        attn = attn.transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(attn)
        return x + self.fc2(self.act(self.fc1(self.ln2(x))))


def make_transformer_block():
    return TransformerBlock(), (2, 16, 64)


class SmallCNN(nn.Module):
    """Conv-BN-ReLU x2, MaxPool, two branches joined by Concat, ReLU6 (Clip),
    global average pool, Flatten, Dropout, Linear (Gemm transB=1)."""

    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(2)
        self.branch_a = nn.Conv2d(16, 8, 1)
        self.branch_b = nn.Conv2d(16, 8, 3, padding=1)
        self.relu6 = nn.ReLU6()
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.pool(x)
        x = torch.cat([self.branch_a(x), self.branch_b(x)], dim=1)
        x = self.relu6(x)
        x = self.flatten(self.gap(x))
        return self.fc(self.dropout(x))


def make_small_cnn():
    model = SmallCNN()
    randomize_batch_norms(model, torch.Generator().manual_seed(2))
    return model, (2, 3, 32, 32)


class MLPShapeChain(nn.Module):
    """An MLP whose flatten is x.view(x.size(0), -1): the export holds a
    Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4 * 6 * 6, 32)
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.fc2(torch.tanh(self.fc1(x)))


def make_mlp_shape_chain():
    return MLPShapeChain(), (3, 4, 6, 6)


class Recurrent(nn.Module):
    """Bidirectional LSTM and GRU (linear_before_reset) and a tanh RNN over a
    batch-first sequence: both directions, all three recurrent ops."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 8, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(16, 5, batch_first=True, bidirectional=True)
        self.rnn = nn.RNN(10, 4, batch_first=True)

    def forward(self, x):
        y, _ = self.lstm(x)
        y, _ = self.gru(y)
        y, h = self.rnn(y)
        return torch.cat([y.flatten(1), h.transpose(0, 1).flatten(1)], 1)


def make_recurrent():
    return Recurrent(), (2, 7, 6)


def make_mobilenet_v2():
    import torchvision
    model = torchvision.models.mobilenet_v2()
    randomize_batch_norms(model, torch.Generator().manual_seed(3))
    return model, (1, 3, 224, 224)


def make_encoder_layer():
    """PyTorch's own TransformerEncoderLayer, exported at opset 17, where
    LayerNormalization is one ONNX operator."""
    return nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0,
                                      batch_first=True), (2, 16, 64)


class Branches(nn.Module):
    """Runs every branch on the input and returns their outputs flattened
    and concatenated: one reference file checks every kernel path."""

    def __init__(self, *branches):
        super().__init__()
        self.branches = nn.ModuleList(branches)

    def forward(self, x):
        return torch.cat([b(x).flatten(1) for b in self.branches], 1)


class Residual(nn.Module):
    def __init__(self, body):
        super().__init__()
        self.body = body

    def forward(self, x):
        return torch.relu(self.body(x) + x)


def make_grouped_convs():
    """Grouped convolutions (one kernel over all groups): group widths that
    do not divide the vector width (3 -> 5), a channel multiplier (groups =
    in channels, 2 outputs each), a residual add as epilogue, stride 2 and
    dilation 2, on an odd 9x11 map with batch 2."""
    return Branches(
        nn.Sequential(nn.Conv2d(12, 20, 3, padding=1, groups=4), nn.ReLU()),
        nn.Conv2d(12, 24, 3, stride=2, padding=1, groups=12),
        Residual(nn.Conv2d(12, 12, 1, groups=6)),
        nn.Conv2d(12, 12, 3, padding=2, dilation=2, groups=3, bias=False),
    ), (2, 12, 9, 11)


def make_depthwise_convs():
    """Depthwise convolutions 3x3/5x5/7x7, stride 1 and 2, padded and not,
    ReLU6 fused, on a 13x13 map (vector tails) and on a 1x1 map."""
    return Branches(
        nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1, groups=16), nn.ReLU6()),
        nn.Conv2d(16, 16, 5, 2, 2, groups=16),
        nn.Conv2d(16, 16, 7, 1, 3, groups=16),
        nn.Conv2d(16, 16, 3, 1, 0, groups=16, bias=False),
        nn.Sequential(nn.AdaptiveAvgPool2d(1),
                      nn.Conv2d(16, 16, 3, 1, 1, groups=16), nn.ReLU()),
    ), (1, 16, 13, 13)


def make_strided_convs():
    """Stride-2 convolutions whose input is deinterleaved once into even and
    odd columns (1x1, 3x3, 5x5, a 7x7 stem on 3 channels; 7- and 15-wide
    outputs: one vector with a masked tail, two with a 1-lane tail), a
    1x1 convolution on a 6x7 map with a 400-long reduction (its input
    packed, LLVM unrolling off) and a 1x1 stride-2 one (only the columns
    read are packed), batch 2."""
    return Branches(
        nn.Sequential(nn.Conv2d(24, 48, 3, 2, 1), nn.ReLU()),
        nn.Conv2d(24, 48, 1, 2),
        nn.Conv2d(24, 40, 5, 2, 2, bias=False),
        nn.Sequential(nn.Conv2d(24, 3, 1), nn.Conv2d(3, 48, 7, 2, 3)),
        nn.Sequential(nn.Upsample(size=(11, 29)), nn.Conv2d(24, 48, 3, 2, 1)),
        nn.Sequential(nn.Conv2d(24, 400, 3, 2, 1), nn.Conv2d(400, 48, 1),
                      nn.ReLU()),
        nn.Sequential(nn.Conv2d(24, 400, 1), nn.Conv2d(400, 48, 1, 2)),
    ), (2, 24, 11, 13)


class BlockedReduction(nn.Module):
    """A 1x1 convolution from 2001 channels on the 6x7 map: its reduction is
    summed in 4 blocks through the destination (the last one shorter), the
    ReLU applied after the last."""

    def __init__(self):
        super().__init__()
        self.widen = nn.Conv2d(128, 2001, 1)
        self.conv = nn.Sequential(nn.Conv2d(2001, 520, 1), nn.ReLU())

    def forward(self, x):
        return self.conv(self.widen(x))


def make_small_map_convs():
    """Convolutions on a 6x7 map with long reductions: vectors along the
    output channels (40: a half vector tail) and rows over all 42 pixels
    rather than 7-wide rows, a residual epilogue read through those rows, a
    stride-2 one, batch 2; and one summed in blocks of input channels."""
    return Branches(
        nn.Sequential(nn.Conv2d(128, 40, 3, 1, 1), nn.ReLU()),
        Residual(nn.Conv2d(128, 128, 3, 1, 1)),
        nn.Conv2d(128, 48, 3, 2, 1),
        BlockedReduction(),
    ), (2, 128, 6, 7)


def make_pointwise_blocks():
    """1x1 convolutions in the blocked layout whose 1056-channel reductions
    are summed in blocks of 14 channel blocks (the last of 10) through the
    destination: a stride-2 one from 16x16 and one on the 8x8 map with the
    residual add and ReLU applied after the last block."""
    return nn.Sequential(
        nn.Conv2d(96, 1056, 1), nn.ReLU(),
        nn.Conv2d(1056, 1056, 1, stride=2), nn.ReLU(),
        Residual(nn.Conv2d(1056, 1056, 1)),
    ), (1, 96, 16, 16)


def make_winograd_convs():
    """Stride-1 3x3 convolutions that mlc-compile turns into Winograd
    F(4x4, 3x3) (at least 32 input and 64 output channels, 16 tiles), batch
    2 on a 13x11 map: partial 4x4 tiles in both dims, channel counts that
    are not multiples of the vector width (33 -> 68), no padding, 2 rows but
    1 column of padding, a batch norm folded into the filter first, a
    residual epilogue, no bias; and one on a 3x2 map, too small for the
    transform (stays direct)."""
    bn = nn.Sequential(nn.Conv2d(33, 64, 3, padding=1), nn.BatchNorm2d(64),
                       nn.ReLU())
    randomize_batch_norms(bn, torch.Generator().manual_seed(4))
    return Branches(
        bn,
        nn.Conv2d(33, 68, 3),
        nn.Sequential(nn.Conv2d(33, 64, 3, padding=(2, 1), bias=False),
                      nn.ReLU()),
        nn.Sequential(nn.Conv2d(33, 64, 1),
                      Residual(nn.Conv2d(64, 64, 3, padding=1))),
        nn.Sequential(nn.MaxPool2d(4), nn.Conv2d(33, 64, 3, padding=1)),
    ), (2, 33, 13, 11)


class StemAndConcat(nn.Module):
    """A strided 7x7 stem on 3 channels, then concatenations: of two
    branches (written in place) followed by a padded 3x3 convolution, of an
    activation other kernels also read (copied), of the input."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 7, 2, 3)
        self.b1 = nn.Conv2d(16, 8, 1)
        self.b2 = nn.Conv2d(16, 12, 3, padding=1)
        self.fuse = nn.Conv2d(20, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)

    def forward(self, x):
        t = torch.relu(self.stem(x))
        u = self.fuse(torch.cat([torch.relu(self.b1(t)), self.b2(t)], 1))
        dense = torch.cat([t, u], 1)
        shallow = torch.cat([self.pool(x), self.pool(x) * 2], 1)
        return torch.cat([u.flatten(1), dense.flatten(1), shallow.flatten(1)],
                         1)


def make_stem_and_concat():
    return StemAndConcat(), (1, 3, 33, 35)


class Interpolate(nn.Module):
    """F.interpolate in every flavour an export maps to Resize: bilinear
    with and without align_corners at scale 2 and at non-integer sizes
    (13 -> 29 rows), bicubic, nearest at scale 2, downsamplings, a 1-pixel
    input and a 1-pixel output; one result gets an elementwise epilogue."""

    def forward(self, x):
        ys = [
            F.interpolate(x, scale_factor=2, mode="bilinear",
                          align_corners=False) * 2 + 1,
            F.interpolate(x, size=(29, 15), mode="bilinear",
                          align_corners=True),
            F.interpolate(x, size=(29, 15), mode="bilinear",
                          align_corners=False),
            F.interpolate(x, scale_factor=2, mode="nearest"),
            F.interpolate(x, size=(17, 11), mode="bicubic",
                          align_corners=False),
            F.interpolate(x, size=(6, 3), mode="bilinear",
                          align_corners=False),
            F.interpolate(x[:, :, :1, :1], size=(5, 3), mode="bilinear",
                          align_corners=False),
            F.interpolate(x, size=(1, 1), mode="bilinear",
                          align_corners=True),
        ]
        # A 42-wide map shrunk along W: a vector of outputs reads 2, 3 or
        # all 6 input vectors.
        wide = torch.cat([x] * 6, 3)
        ys += [F.interpolate(wide, size=(13, n), mode="bilinear",
                             align_corners=False) for n in (24, 20, 5)]
        return torch.cat([y.flatten(1) for y in ys], 1)


def make_interpolate():
    return Interpolate(), (2, 3, 13, 7)


class UpConv(nn.Module):
    """UNet-style up-convolutions (ConvTranspose2d with stride = kernel):
    k = s = 2 with a bias joined to a skip connection by Concat, k = s = 3
    without a bias, and k = s = 2 on a 1x1 map; odd channel counts."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(5, 9, 3, padding=1)
        self.c2 = nn.Conv2d(9, 11, 3, padding=1)
        self.up1 = nn.ConvTranspose2d(11, 9, 2, stride=2)
        self.c3 = nn.Conv2d(18, 3, 1)
        self.up2 = nn.ConvTranspose2d(3, 2, 3, stride=3, bias=False)
        self.up3 = nn.ConvTranspose2d(11, 4, 2, stride=2)

    def forward(self, x):
        d = F.relu(self.c1(x))
        m = F.relu(self.c2(F.max_pool2d(d, 2)))
        y = self.c3(torch.cat([self.up1(m), d], 1))
        g = self.up3(F.adaptive_avg_pool2d(m, 1))
        return torch.cat([self.up2(y).flatten(1), g.flatten(1)], 1)


def make_upconv():
    return UpConv(), (2, 5, 12, 10)


class Pool3D(nn.Module):
    """3-D pooling (volumes, video clips): MaxPool3d with padding, unequal
    strides, dilation and ceil_mode, AvgPool3d with padding counted and not
    counted, between two Conv2d of the depth slices (so the volume comes
    from a 2-D network's features)."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        n, c, d, h, w = x.shape
        f = F.relu(self.c(x.transpose(1, 2).reshape(n * d, c, h, w)))
        v = f.reshape(n, d, 4, h, w).transpose(1, 2)
        a = F.max_pool3d(v, (3, 2, 3), stride=(2, 1, 2), padding=(1, 0, 1))
        b = F.max_pool3d(v, 2, stride=2, dilation=(1, 2, 1), ceil_mode=True)
        m = F.avg_pool3d(v, 3, stride=(1, 2, 2), padding=1,
                         count_include_pad=False)
        e = F.avg_pool3d(v, (2, 3, 3), stride=2, padding=(1, 1, 0))
        return torch.cat([t.flatten(1) for t in (a, b, m, e)], 1)


def make_pool3d():
    return Pool3D(), (2, 3, 7, 9, 10)


class Conv3D(nn.Module):
    """A small video CNN in r3d_18's style: a (3, 5, 5) stem with stride
    (1, 2, 2), a residual block of 3x3x3 convolutions with BatchNorm3d, a
    strided downsampling block with a 1x1x1 shortcut, a grouped and a
    dilated convolution without bias, global average pooling and a linear
    classifier."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv3d(3, 8, (3, 5, 5), stride=(1, 2, 2),
                              padding=(1, 2, 2), bias=False)
        self.bn0 = nn.BatchNorm3d(8)
        self.c1 = nn.Conv3d(8, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm3d(8)
        self.c2 = nn.Conv3d(8, 8, 3, padding=1)
        self.down = nn.Conv3d(8, 12, 3, stride=2, padding=1)
        self.short = nn.Conv3d(8, 12, 1, stride=2)
        self.grouped = nn.Conv3d(12, 12, (2, 3, 3), groups=3, padding=(0, 1, 1),
                                 bias=False)
        self.dilated = nn.Conv3d(12, 6, 3, dilation=(2, 1, 1),
                                 padding=(2, 1, 1))
        self.fc = nn.Linear(6, 5)

    def forward(self, x):
        x = F.relu(self.bn0(self.stem(x)))
        x = F.relu(x + self.c2(F.relu(self.bn1(self.c1(x)))))
        x = F.relu(self.down(x) + self.short(x))
        x = F.relu(self.dilated(F.relu(self.grouped(x))))
        # The feature map too: every output position is checked.
        return torch.cat([self.fc(F.adaptive_avg_pool3d(x, 1).flatten(1)),
                          x.flatten(1)], 1)


def make_conv3d():
    model = Conv3D()
    randomize_batch_norms(model, torch.Generator().manual_seed(3))
    return model, (2, 3, 6, 20, 18)


class Conv1D(nn.Module):
    """An audio-style 1-D CNN: Conv1d (strided, padded, dilated, grouped),
    BatchNorm1d, ReLU, MaxPool1d (with ceil_mode), AvgPool1d, global
    pooling and a linear classifier; the output also holds the last feature
    map."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(2, 8, 9, stride=2, padding=4)
        self.bn1 = nn.BatchNorm1d(8)
        self.c2 = nn.Conv1d(8, 8, 3, padding=2, dilation=2, groups=2,
                            bias=False)
        self.bn2 = nn.BatchNorm1d(8)
        self.c3 = nn.Conv1d(8, 6, 5)
        self.fc = nn.Linear(6, 4)

    def forward(self, x):
        x = F.max_pool1d(F.relu(self.bn1(self.c1(x))), 3, stride=2,
                         ceil_mode=True)
        x = F.relu(x + self.bn2(self.c2(x)))
        x = F.avg_pool1d(F.relu(self.c3(x)), 2)
        return torch.cat([self.fc(x.mean(2)), x.flatten(1)], 1)


def make_conv1d():
    model = Conv1D()
    randomize_batch_norms(model, torch.Generator().manual_seed(4))
    return model, (3, 2, 101)


class UpConv3D(nn.Module):
    """3-D transposed convolutions (a volume decoder): strided, padded,
    with output_padding, dilation and groups, and a stride-2 2x2x2 one."""

    def __init__(self):
        super().__init__()
        self.up1 = nn.ConvTranspose3d(4, 6, 3, stride=(2, 2, 1),
                                      padding=(1, 0, 1),
                                      output_padding=(1, 1, 0),
                                      dilation=(1, 2, 1), groups=2)
        self.up2 = nn.ConvTranspose3d(6, 3, 2, stride=2, bias=False)

    def forward(self, x):
        return self.up2(F.relu(self.up1(x)))


def make_upconv3d():
    return UpConv3D(), (2, 4, 3, 5, 4)


class ControlFlow(nn.Module):
    """Scripted (not traced) control flow: an If on a run-time condition
    (the sign of the input's sum) choosing between two linear layers, then
    a recurrence over the rows of the result in a Python loop that appends
    to a list, stacked at the end: If, Loop, SequenceEmpty, SequenceInsert
    and ConcatFromSequence in the export."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 8)
        self.c = nn.Linear(8, 8)

    def forward(self, x):
        if bool(x.sum() > 0):
            y = torch.relu(self.a(x))
        else:
            y = torch.tanh(self.b(x)) * 2
        h = torch.zeros_like(y[0])
        outs = []
        for i in range(y.size(0)):
            h = torch.tanh(self.c(h) + y[i])
            outs.append(h)
        return torch.stack(outs) + h


def make_control_flow():
    return torch.jit.script(ControlFlow()), (5, 8)


MODELS = {
    "control_flow": make_control_flow,
    "upconv3d": make_upconv3d,
    "conv1d": make_conv1d,
    "conv3d": make_conv3d,
    "pool3d": make_pool3d,
    "interpolate": make_interpolate,
    "upconv": make_upconv,
    "mobilenet_v2": make_mobilenet_v2,
    "encoder_layer": make_encoder_layer,
    "recurrent": make_recurrent,
    "resnet18": make_resnet18,
    "transformer_block": make_transformer_block,
    "small_cnn": make_small_cnn,
    "mlp_shape_chain": make_mlp_shape_chain,
    "grouped_convs": make_grouped_convs,
    "depthwise_convs": make_depthwise_convs,
    "stem_and_concat": make_stem_and_concat,
    "strided_convs": make_strided_convs,
    "small_map_convs": make_small_map_convs,
    "pointwise_blocks": make_pointwise_blocks,
    "winograd_convs": make_winograd_convs,
}

# Op types each export must contain: what the model is there to test.
REQUIRED_OPS = {
    "upconv3d": {"ConvTranspose", "Relu"},
    "control_flow": {"If", "Loop", "SequenceEmpty", "SequenceInsert",
                     "ConcatFromSequence", "Gemm", "Tanh"},
    "conv1d": {"Conv", "BatchNormalization", "Relu", "MaxPool", "AveragePool",
               "Add", "Gemm"},
    "conv3d": {"Conv", "BatchNormalization", "Relu", "Add",
               "GlobalAveragePool", "Gemm"},
    "pool3d": {"MaxPool", "AveragePool", "Conv", "Concat"},
    "interpolate": {"Resize", "Concat"},
    "upconv": {"ConvTranspose", "Concat", "MaxPool"},
    "resnet18": {"Conv", "BatchNormalization", "Relu", "MaxPool", "Add", "GlobalAveragePool",
                 "Flatten", "Gemm"},
    "transformer_block": {"ReduceMean", "Sub", "Pow", "Sqrt", "Div", "Split",
                          "Reshape", "Transpose", "MatMul", "Softmax", "Erf"},
    "small_cnn": {"Conv", "BatchNormalization", "Relu", "MaxPool", "Concat", "Clip",
                  "GlobalAveragePool", "Flatten", "Gemm"},
    "mlp_shape_chain": {"Shape", "Gather", "Unsqueeze", "Concat", "Reshape"},
    "recurrent": {"LSTM", "GRU", "RNN"},
    "grouped_convs": {"Conv", "Relu", "Add", "Concat"},
    "depthwise_convs": {"Conv", "Clip", "Relu", "GlobalAveragePool", "Concat"},
    "stem_and_concat": {"Conv", "Relu", "Concat", "MaxPool", "Mul"},
    "strided_convs": {"Conv", "Relu", "Resize", "Concat"},
    "small_map_convs": {"Conv", "Relu", "Add", "Concat"},
    "pointwise_blocks": {"Conv", "Relu", "Add"},
    "winograd_convs": {"Conv", "BatchNormalization", "Relu", "Add", "MaxPool",
                       "Concat"},
    "mobilenet_v2": {"Conv", "BatchNormalization", "Clip", "Add",
                     "GlobalAveragePool", "Gemm"},
    "encoder_layer": {"LayerNormalization", "MatMul", "Softmax", "Gemm"},
}

# Models also checked on a second input (name.input2.npy, .output2.npy):
# control_flow's negated input takes the If's other branch.
SECOND_INPUTS = {"control_flow": lambda x: -x}

# Models exported at another opset than OPSET.
OPSETS = {"encoder_layer": 17}


# ---------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------

def export(model, x, fold, dynamic_batch=False, opset=OPSET):
    """TrainingMode.PRESERVE on an eval-mode model: exported for inference,
    but without the exporter's own Conv+BatchNormalization fusion (EVAL
    does it), so BatchNormalization nodes reach the importer."""
    buf = io.BytesIO()
    dynamic_axes = {"x": {0: "N"}, "y": {0: "N"}} if dynamic_batch else None
    torch.onnx.export(model, (x,), buf, opset_version=opset,
                      do_constant_folding=fold, input_names=["x"],
                      output_names=["y"], dynamic_axes=dynamic_axes,
                      training=torch.onnx.TrainingMode.PRESERVE)
    return onnx.load_from_string(buf.getvalue())


def pin_batch(proto, batch):
    """Makes a dynamic-batch export static again: dim 0 of the graph's
    inputs and outputs becomes `batch`; intermediate shapes are dropped
    (the importer infers them). The Shape chain stays in the graph."""
    for v in list(proto.graph.input) + list(proto.graph.output):
        dim = v.type.tensor_type.shape.dim[0]
        dim.Clear()
        dim.dim_value = batch
    del proto.graph.value_info[:]
    return proto


def op_types(model):
    """Op types of the graph and of its nodes' subgraphs."""
    def walk(graph):
        for n in graph.node:
            yield n.op_type
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    yield from walk(a.g)
    return set(walk(model.graph))


def generate(name, outdir):
    torch.manual_seed(0)
    model, shape = MODELS[name]()
    model.eval()
    x = torch.from_numpy(
        np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        expected = model(x).numpy().astype(np.float32)

    opset = OPSETS.get(name, OPSET)
    proto = export(model, x, fold=True, opset=opset)
    if not REQUIRED_OPS[name] <= op_types(proto):
        # Constant folding may turn the shape chain into a constant; export
        # that model unfolded.
        proto = export(model, x, fold=False, opset=opset)
    if not REQUIRED_OPS[name] <= op_types(proto):
        # With a static input shape, torch's ONNX shape inference still
        # turns x.size(0) into a constant: trace with a dynamic batch (which
        # keeps Shape -> Gather) and pin the batch size afterwards.
        proto = pin_batch(export(model, x, fold=True, dynamic_batch=True,
                                 opset=opset), shape[0])
    missing = REQUIRED_OPS[name] - op_types(proto)
    if missing:
        sys.exit("gen_torch_models.py: %s: export lacks %s (has %s)" %
                 (name, sorted(missing), sorted(op_types(proto))))
    onnx.checker.check_model(proto, full_check=True)

    # Exporting traces the model; it must not have changed it.
    with torch.no_grad():
        again = model(x).numpy()
    if not np.array_equal(expected, again):
        sys.exit("gen_torch_models.py: %s: output changed by exporting" % name)
    if not np.isfinite(expected).all():
        sys.exit("gen_torch_models.py: %s: non-finite reference output" % name)

    base = os.path.join(outdir, name)
    onnx.save(proto, base + ".onnx")
    np.save(base + ".input.npy", x.numpy())
    np.save(base + ".output.npy", expected)
    if name in SECOND_INPUTS:
        x2 = SECOND_INPUTS[name](x)
        with torch.no_grad():
            np.save(base + ".input2.npy", x2.numpy())
            np.save(base + ".output2.npy", model(x2).numpy())
    print("%s: %s -> %s, %d nodes, opset %d" %
          (name, list(shape), list(expected.shape), len(proto.graph.node),
           opset))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("names", nargs="*", metavar="name",
                    help="models to generate (default: all of %s)" %
                    ", ".join(MODELS))
    args = ap.parse_args()
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        ap.error("unknown model(s) %s; choose from %s" %
                 (", ".join(unknown), ", ".join(MODELS)))
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(1)
    for name in args.names or list(MODELS):
        generate(name, args.outdir)


if __name__ == "__main__":
    main()
