#!/usr/bin/python3
"""Checks an `mlc-run --train ... --eval ...` log: every epoch has a finite
loss, the loss of the last epoch is below that of the first (when there is
more than one), and test_accuracy reaches --min-accuracy. Prints what it
found; exits 1 with the reason otherwise."""

import argparse
import math
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--min-accuracy", type=float, required=True)
    ap.add_argument("--max-first-loss", type=float,
                    help="the first epoch's loss must be below this")
    args = ap.parse_args()
    text = open(args.log).read()
    losses = [float(v) for v in re.findall(r"^epoch \d+/\d+ loss=(\S+)", text,
                                           re.M)]
    acc = re.findall(r"^test_accuracy=(\S+)$", text, re.M)
    problems = []
    if not losses:
        problems.append("no 'epoch i/n loss=' lines")
    elif not all(math.isfinite(v) for v in losses):
        problems.append("non-finite loss: %s" % losses)
    elif len(losses) > 1 and not losses[-1] < losses[0]:
        problems.append("loss did not fall: first %g, last %g"
                        % (losses[0], losses[-1]))
    if args.max_first_loss is not None and losses and \
            not losses[0] < args.max_first_loss:
        problems.append("first loss %g is not below %g"
                        % (losses[0], args.max_first_loss))
    if len(acc) != 1:
        problems.append("expected one test_accuracy= line, got %d" % len(acc))
    elif not float(acc[0]) >= args.min_accuracy:
        problems.append("test_accuracy %s is below %g"
                        % (acc[0], args.min_accuracy))
    if losses:
        print("epochs=%d first_loss=%g last_loss=%g test_accuracy=%s"
              % (len(losses), losses[0], losses[-1], acc[0] if acc else "?"))
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
