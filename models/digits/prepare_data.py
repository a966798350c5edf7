#!/usr/bin/python3
"""Prepares the UCI handwritten digits data set for the digits_mlp and
digits_cnn training examples (docs/training.md).

Reads the copy of the data set that Debian's python3-sklearn ships
(digits.csv.gz: 1797 rows, 64 pixel values 0..16 of an 8x8 image, then the
label 0..9; no header). sklearn itself is not imported. Pixels are scaled to
[0, 1] (divided by 16); rows are split 80/20 into 1437 training and 360 test
examples by numpy.random.default_rng(0).permutation, so the split is the
same on every machine. Writes to --out DIR (default models/digits/data,
git-ignored):

  X_train.npy      f32 [1437, 64]       y_train.npy  i64 [1437]
  X_test.npy       f32 [360, 64]        y_test.npy   i64 [360]
  X_train_img.npy  f32 [1437, 1, 8, 8]  (the same rows, NCHW, for the CNN)
  X_test_img.npy   f32 [360, 1, 8, 8]

usage: /usr/bin/python3 models/digits/prepare_data.py [--out DIR] [--csv FILE]
"""

import argparse
import gzip
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
SEED = 0
TEST_FRACTION = 0.2


def load_csv(path):
    if not os.path.exists(path):
        sys.exit("prepare_data.py: error: %s not found; it comes with Debian's "
                 "python3-sklearn package (scripts/install-deps.sh --dev, or "
                 "apt-get install python3-sklearn), or pass --csv FILE" % path)
    with gzip.open(path, "rt") as f:
        data = np.loadtxt(f, delimiter=",", dtype=np.int64)
    if data.ndim != 2 or data.shape[1] != 65:
        sys.exit("prepare_data.py: error: %s: expected 65 columns (64 pixels "
                 "and the label), got shape %s" % (path, data.shape))
    pixels, labels = data[:, :64], data[:, 64]
    if pixels.min() < 0 or pixels.max() > 16 or labels.min() < 0 or \
            labels.max() > 9:
        sys.exit("prepare_data.py: error: %s: pixel values must be in 0..16 "
                 "and labels in 0..9" % path)
    return pixels, labels


def split(pixels, labels):
    """Returns (X_train, y_train, X_test, y_test)."""
    n = len(labels)
    perm = np.random.default_rng(SEED).permutation(n)
    # Rounded up, as sklearn's train_test_split does: 360 of 1797.
    n_test = int(math.ceil(n * TEST_FRACTION))
    train, test = perm[n_test:], perm[:n_test]
    x = (pixels.astype(np.float32) / np.float32(16.0)).astype(np.float32)
    y = labels.astype(np.int64)
    return x[train], y[train], x[test], y[test]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "data"),
                    help="output directory (default models/digits/data)")
    ap.add_argument("--csv", default=CSV, help="digits.csv.gz (default %s)" %
                    CSV)
    args = ap.parse_args()
    pixels, labels = load_csv(args.csv)
    x_train, y_train, x_test, y_test = split(pixels, labels)
    os.makedirs(args.out, exist_ok=True)
    arrays = {
        "X_train": x_train, "y_train": y_train,
        "X_test": x_test, "y_test": y_test,
        "X_train_img": x_train.reshape(-1, 1, 8, 8),
        "X_test_img": x_test.reshape(-1, 1, 8, 8),
    }
    for name, a in arrays.items():
        np.save(os.path.join(args.out, name + ".npy"), np.ascontiguousarray(a))
    print("digits: %d examples -> %d train, %d test (seed %d), written to %s"
          % (len(labels), len(y_train), len(y_test), SEED, args.out))
    print("train labels per class: %s" %
          " ".join(str(c) for c in np.bincount(y_train, minlength=10)))
    print("test labels per class:  %s" %
          " ".join(str(c) for c in np.bincount(y_test, minlength=10)))


if __name__ == "__main__":
    main()
