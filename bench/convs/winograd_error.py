#!/usr/bin/python3
"""The error of Winograd F(4x4, 3x3) against direct convolution.

  bench/convs/winograd_error.py [--bin DIR] [--out DIR] [--layers A,B]

For each stride-1 3x3 layer of bench/convs/run.py (the same seeded weights
and input), mlc-compile builds the layer twice, with --winograd=false and
with --winograd, and both outputs are compared with a float64 evaluation of
the same convolution (PyTorch on float64 copies of the weights and input):
the relative L2 error ||y - ref|| / ||ref|| and the largest absolute error
over the largest |ref|. Float32 PyTorch is listed too, as the yardstick of
what a float32 direct convolution gets wrong.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import run as convs  # noqa: E402  (bench/convs/run.py: LAYERS, make)


def errors(y, ref):
    return (np.linalg.norm(y - ref) / np.linalg.norm(ref),
            np.abs(y - ref).max() / np.abs(ref).max())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build",
                                                  "bench-convs"))
    ap.add_argument("--layers", help="comma-separated (default: every "
                    "stride-1 3x3 layer)")
    args = ap.parse_args()
    import onnx
    import torch
    from onnx import numpy_helper

    names = (args.layers.split(",") if args.layers else
             [n for n, s in convs.LAYERS.items()
              if s[4] == 3 and s[5] == 1 and s[6] == 1])
    os.makedirs(args.out, exist_ok=True)
    print("%-12s %-22s %-22s %-22s" % ("layer", "PyTorch f32", "mlc direct",
                                       "mlc Winograd"))
    print("%-12s %-22s %-22s %-22s" % ("", *["rel L2   max/|ref|max"] * 3))
    for name in names:
        spec = convs.LAYERS[name]
        path = convs.make(name, spec, args.out)
        x = np.load(os.path.join(args.out, name + ".x.npy"))
        weights = {t.name: numpy_helper.to_array(t)
                   for t in onnx.load(path).graph.initializer}
        w = np.array(next(v for v in weights.values() if v.ndim == 4))
        b = np.array(next(v for v in weights.values() if v.ndim == 1))
        ref = torch.nn.functional.conv2d(
            torch.from_numpy(x).double(), torch.from_numpy(w).double(),
            torch.from_numpy(b).double(), padding=1)
        if spec[7]:
            ref = torch.relu(ref)
        ref = ref.numpy()
        row = [errors(np.load(os.path.join(args.out, name + ".y.npy")), ref)]
        for flag in ("--winograd=false", "--winograd"):
            so = os.path.join(args.out, "%s.err.so" % name)
            subprocess.run([os.path.join(args.bin, "mlc-compile"), path,
                            flag, "-o", so], check=True)
            outdir = os.path.join(args.out, name + ".err")
            subprocess.run([os.path.join(args.bin, "mlc-run"), so, "-i",
                            os.path.join(args.out, name + ".x.npy"), "-o",
                            outdir], check=True, capture_output=True)
            row.append(errors(np.load(os.path.join(outdir, "y.npy")), ref))
        print("%-12s " % name + " ".join("%-9.2e %-12.2e" % e for e in row),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
