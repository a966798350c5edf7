"""Compares run_model's printed outputs ("name: v0 v1 ...") with .npy
references: check_outputs.py [--exact] OUT.txt NAME=REF.npy ... prints
"NAME: matches" or "NAME: mismatch ..." per reference (rtol 1e-4, atol
1e-5; with --exact, float32 values equal bit for bit, which needs them
printed with 9 significant digits) and exits 1 on any mismatch or missing
output."""
import sys

import numpy as np


def main():
    args = sys.argv[1:]
    exact = args[:1] == ["--exact"]
    if exact:
        args = args[1:]
    printed = {}
    with open(args[0]) as f:
        for line in f:
            name, _, values = line.partition(":")
            printed[name] = np.array([float(v) for v in values.split()])
    ok = True
    for arg in args[1:]:
        name, path = arg.split("=", 1)
        want = np.load(path).reshape(-1)
        got = printed.get(name)
        if got is None or got.shape != want.shape:
            print("%s: mismatch (missing or %s values, expected %d)" % (
                name, None if got is None else got.size, want.size))
            ok = False
            continue
        if exact:
            same = np.array_equal(got.astype(np.float32).view(np.uint32),
                                  want.astype(np.float32).view(np.uint32))
        else:
            same = np.allclose(got, want.astype(np.float64), rtol=1e-4,
                               atol=1e-5)
        if same:
            print("%s: matches" % name)
        else:
            print("%s: mismatch (max abs err %g)" % (
                name, np.abs(got - want.astype(np.float64)).max()))
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
