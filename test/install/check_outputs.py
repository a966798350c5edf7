"""Compares run_model's printed outputs ("name: v0 v1 ...") with .npy
references: check_outputs.py OUT.txt NAME=REF.npy ... prints
"NAME: matches" or "NAME: mismatch ..." per reference (rtol 1e-4, atol
1e-5) and exits 1 on any mismatch or missing output."""
import sys

import numpy as np


def main():
    printed = {}
    with open(sys.argv[1]) as f:
        for line in f:
            name, _, values = line.partition(":")
            printed[name] = np.array([float(v) for v in values.split()])
    ok = True
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        want = np.load(path).reshape(-1).astype(np.float64)
        got = printed.get(name)
        if got is None or got.shape != want.shape:
            print("%s: mismatch (missing or %s values, expected %d)" % (
                name, None if got is None else got.size, want.size))
            ok = False
        elif np.allclose(got, want, rtol=1e-4, atol=1e-5):
            print("%s: matches" % name)
        else:
            print("%s: mismatch (max abs err %g)" % (
                name, np.abs(got - want).max()))
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
