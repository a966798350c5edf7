#!/usr/bin/env python3
"""Post-training int8 quantization of a trained model on real data
(ptq-digits.test).

  ptq_digits.py prepare OUT   trains a small CNN on scikit-learn's digits
                              (8x8 images, seeded), exports it to ONNX with a
                              batch of 90, writes 8 calibration batches from
                              the training set (OUT/calib/*.npy) and the test
                              set as 4 batches with their labels
  ptq_digits.py eval OUT F32.so INT8.so
                              the test accuracy of both models; fails if
                              int8 loses more than 0.5 points
"""
import os
import sys

import numpy as np

BATCH = 90


def prepare(out):
    import onnx  # noqa: F401  (the exporter needs it)
    import torch
    from sklearn.datasets import load_digits

    torch.manual_seed(0)
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    x, y = x[order], y[order]
    test_n = 4 * BATCH
    xtr, ytr, xte, yte = x[test_n:], y[test_n:], x[:test_n], y[:test_n]

    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(32 * 4 * 4, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    xt, yt = torch.from_numpy(xtr), torch.from_numpy(ytr)
    for epoch in range(15):
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
    model.eval()
    os.makedirs(os.path.join(out, "calib"), exist_ok=True)
    torch.onnx.export(model, (torch.from_numpy(xte[:BATCH]),),
                      os.path.join(out, "digits.onnx"), opset_version=13,
                      input_names=["x"], output_names=["y"])
    for i in range(8):
        np.save(os.path.join(out, "calib", "batch%d.npy" % i),
                xtr[i * BATCH:(i + 1) * BATCH])
    for i in range(4):
        np.save(os.path.join(out, "test%d.npy" % i),
                xte[i * BATCH:(i + 1) * BATCH])
    np.save(os.path.join(out, "labels.npy"), yte)


def accuracy(so, out):
    import mlc
    labels = np.load(os.path.join(out, "labels.npy"))
    model = mlc.load(so)
    right = 0
    for i in range(4):
        logits = model(np.load(os.path.join(out, "test%d.npy" % i)))
        if isinstance(logits, (list, tuple)):
            logits = logits[0]
        right += int((np.argmax(logits, axis=1) ==
                      labels[i * BATCH:(i + 1) * BATCH]).sum())
    return 100.0 * right / len(labels)


def main():
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
        return
    out, f32, int8 = sys.argv[2:5]
    a32, a8 = accuracy(f32, out), accuracy(int8, out)
    print("fp32 accuracy %.2f%%, int8 accuracy %.2f%%, drop %.2f points"
          % (a32, a8, a32 - a8))
    if a32 < 90:
        sys.exit("the float model did not train (%.2f%%)" % a32)
    if a32 - a8 > 0.5:
        sys.exit("int8 loses %.2f points (limit 0.5)" % (a32 - a8))
    print("ptq-digits: ok")


if __name__ == "__main__":
    main()
