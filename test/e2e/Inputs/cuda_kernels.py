"""Summarizes the CUDA kernels of an mlc-compile --report file per chip, from
what ptxas -v said: how many, how many use shared memory, the most registers,
and the largest stack frame and spills (which should be none: per-thread
arrays are meant to live in registers)."""

import json
import sys

report = json.load(open(sys.argv[1]))
chips = {}
for k in report["cuda_kernels"]:
    chips.setdefault(k["chip"], []).append(k)
for chip, ks in sorted(chips.items()):
    print("%s: %d kernels, %d with shared memory, max registers %d, "
          "max stack %d, max spills %d" % (
              chip, len(ks), sum(k["shared_bytes"] > 0 for k in ks),
              max(k["registers"] for k in ks),
              max(k["stack_bytes"] for k in ks),
              max(k["spill_store_bytes"] + k["spill_load_bytes"] for k in ks)))
