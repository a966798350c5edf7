#!/usr/bin/env python3
"""Bad calibration inputs and scales files for ptq-errors.test (the model
is Inputs/ptq-small.mlir: input x [1, 2, 6, 6] f32)."""
import json
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(0)


def sample(folder, name, array):
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    np.save(os.path.join(out, folder, name), array)


good = rng.uniform(-1, 1, (1, 2, 6, 6)).astype(np.float32)
sample("good", "a.npy", good)
sample("good", "b.npy", -good)
os.makedirs(os.path.join(out, "empty"), exist_ok=True)
sample("shape", "a.npy", good)
sample("shape", "b.npy", good.reshape(2, 36))
sample("dtype", "a.npy", good.astype(np.float64))
nan = good.copy()
nan[0, 1, 2, 3] = np.nan
sample("nan", "a.npy", nan)
inf = good.copy()
inf[0, 0, 0, 0] = -np.inf
sample("inf", "a.npy", inf)


def scales(name, sites):
    with open(os.path.join(out, name), "w") as f:
        json.dump({"sites": sites}, f)


scales("missing.json", [{"name": "conv2d_0", "kept": True}])
scales("negative.json", [{"name": "conv2d_1", "scale": -0.5,
                          "zero_point": 3}])
scales("zero.json", [{"name": "conv2d_1", "scale": 0, "zero_point": 3}])
scales("zp.json", [{"name": "conv2d_1", "scale": 0.5, "zero_point": 300}])
scales("extra.json", [{"name": "conv2d_1", "scale": 0.5, "zero_point": 3},
                      {"name": "conv9", "scale": 0.5, "zero_point": 3}])
scales("ok.json", [{"name": "conv2d_1", "scale": 0.05, "zero_point": 3}])
with open(os.path.join(out, "notjson.json"), "w") as f:
    f.write("{sites: [")

# Two inputs (Inputs/ptq-two-inputs.mlir): a folder per sample.
for i in range(3):
    sample(os.path.join("two", "s%d" % i), "x.npy",
           rng.uniform(-1, 1, (2, 8)).astype(np.float32))
    sample(os.path.join("two", "s%d" % i), "y.npy",
           rng.uniform(-1, 1, (2, 8)).astype(np.float32))
sample(os.path.join("two_missing", "s0"), "x.npy",
       rng.uniform(-1, 1, (2, 8)).astype(np.float32))
sample("two_flat", "x.npy", rng.uniform(-1, 1, (2, 8)).astype(np.float32))
