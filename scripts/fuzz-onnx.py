#!/usr/bin/python3
"""Structure-aware fuzzing of mlc's ONNX importer.

  scripts/fuzz-onnx.py [--mlc-bin DIR] [--iterations N] [--seed S] [--out DIR]
                       [--seeds REGEX]

Takes the ONNX node tests that mlc passes (test/onnx/expected_pass.txt) as
seeds, mutates each picked model one to three times (attribute values,
tensor dims, initializer data sizes, edges, opset versions, subgraphs'
inputs and outputs; nodes of If/Loop/Scan bodies included) and runs
mlc-compile on it. A model may be accepted or refused; what counts as a
bug:

  crash      killed by a signal (or exit code > 1)
  hang       still running after --timeout seconds
  sanitizer  AddressSanitizer or UBSan ("runtime error:") printed a report
  silent     refused (exit 1) without an "error:" message
  leftover   refused, yet the output file exists

Each bug's model is kept in --out as <kind>-<n>.onnx with the mutations in
<kind>-<n>.txt. Exit status 1 if any bug was found. The mutations are drawn
from --seed, so a run is repeatable. Run it on the sanitizer build
(BUILD_DIR=build-asan MLC_SANITIZE=ON scripts/build.sh) to catch undefined
behaviour: --mlc-bin build-asan/bin.

By default the model is only imported and optimized (--emit=mlir), which is
where malformed structure is handled; --full compiles to a model.so.
"""

import argparse
import copy
import os
import random
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_DIR = "/usr/share/libonnx-testdata/data/node"

# Values that stress shape arithmetic and range checks.
EXTREME_INTS = [0, -1, 1, 2, 3, -2, 7, 255, 65536, 1 << 31, -(1 << 31),
                (1 << 62), -(1 << 62), (1 << 63) - 1, -(1 << 63)]
EXTREME_FLOATS = [0.0, -0.0, 1e-45, 1e38, -1e38, float("inf"), float("-inf"),
                  float("nan")]


def pick_int(rng):
    return rng.choice(EXTREME_INTS) if rng.random() < 0.7 else \
        rng.randint(-8, 64)


def graphs(graph):
    """`graph` and the subgraphs of its nodes (If's branches, Loop's body),
    recursively."""
    yield graph
    for n in graph.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from graphs(a.g)


def all_nodes(m):
    return [n for g in graphs(m.graph) for n in g.node]


def mutate_attribute(m, rng, log):
    nodes = [n for n in all_nodes(m) if n.attribute]
    if not nodes:
        return False
    node = rng.choice(nodes)
    attr = rng.choice(node.attribute)
    where = "node %r attribute %r" % (node.name or node.op_type, attr.name)
    if attr.type == onnx.AttributeProto.INT:
        attr.i = pick_int(rng)
        log.append("%s = %d" % (where, attr.i))
    elif attr.type == onnx.AttributeProto.INTS:
        values = list(attr.ints)
        choice = rng.random()
        if values and choice < 0.6:
            values[rng.randrange(len(values))] = pick_int(rng)
        elif values and choice < 0.8:
            values.pop(rng.randrange(len(values)))
        else:
            values.append(pick_int(rng))
        del attr.ints[:]
        attr.ints.extend(values)
        log.append("%s = %s" % (where, values))
    elif attr.type == onnx.AttributeProto.FLOAT:
        attr.f = rng.choice(EXTREME_FLOATS)
        log.append("%s = %r" % (where, attr.f))
    elif attr.type == onnx.AttributeProto.STRING:
        attr.s = rng.choice([b"", b"NOTSET", b"SAME_UPPER", b"bogus",
                             b"\xff\xfe"])
        log.append("%s = %r" % (where, attr.s))
    else:
        # Another type under the same name: the importer must check types.
        node.attribute.remove(attr)
        node.attribute.append(helper.make_attribute(attr.name, pick_int(rng)))
        log.append("%s retyped as int" % where)
    return True


def mutate_dims(m, rng, log):
    infos = list(m.graph.input) + list(m.graph.output)
    infos = [v for v in infos if v.type.HasField("tensor_type")]
    if not infos:
        return False
    v = rng.choice(infos)
    shape = v.type.tensor_type.shape
    choice = rng.random()
    if shape.dim and choice < 0.6:
        d = shape.dim[rng.randrange(len(shape.dim))]
        d.dim_value = rng.choice([0, 1, 2, 1 << 20, 1 << 40, 1 << 62])
        log.append("value %r dim = %d" % (v.name, d.dim_value))
    elif shape.dim and choice < 0.8:
        del shape.dim[rng.randrange(len(shape.dim))]
        log.append("value %r loses a dim" % v.name)
    else:
        shape.dim.add().dim_value = rng.choice([1, 3])
        log.append("value %r gains a dim" % v.name)
    return True


def mutate_initializer(m, rng, log):
    tensors = [t for g in graphs(m.graph) for t in g.initializer]
    for n in all_nodes(m):
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                tensors.append(a.t)
    if not tensors:
        return False
    t = rng.choice(tensors)
    if t.raw_data and rng.random() < 0.5:
        cut = rng.randrange(len(t.raw_data) + 1)
        t.raw_data = t.raw_data[:cut]
        log.append("tensor %r raw_data cut to %d bytes" % (t.name, cut))
    elif t.dims:
        i = rng.randrange(len(t.dims))
        t.dims[i] = rng.choice([0, 2, 1 << 40, -1])
        log.append("tensor %r dims[%d] = %d" % (t.name, i, t.dims[i]))
    else:
        t.dims.append(rng.choice([0, 2]))
        log.append("tensor %r gains a dim" % t.name)
    return True


def mutate_edge(m, rng, log):
    nodes = [n for n in all_nodes(m) if n.input]
    if not nodes:
        return False
    node = rng.choice(nodes)
    # Any name of any scope: a subgraph's inner names used outside it too.
    names = [v.name for g in graphs(m.graph) for v in g.input] + \
        [o for n in all_nodes(m) for o in n.output] + ["no_such_value", ""]
    i = rng.randrange(len(node.input))
    old = node.input[i]
    node.input[i] = rng.choice(names)
    log.append("node %r input %d: %r -> %r" %
               (node.name or node.op_type, i, old, node.input[i]))
    return True


def mutate_opset(m, rng, log):
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = rng.choice([1, 5, 6, 7, 9, 11, 13, 17, 21, 30, 1000])
            log.append("opset = %d" % o.version)
            return True
    return False


def mutate_subgraph(m, rng, log):
    """Drops or duplicates a subgraph's input or output."""
    subs = list(graphs(m.graph))[1:]
    if not subs:
        return False
    g = rng.choice(subs)
    field = g.input if rng.random() < 0.5 else g.output
    which = "input" if field is g.input else "output"
    if field and rng.random() < 0.5:
        i = rng.randrange(len(field))
        del field[i]
        log.append("subgraph %r loses %s %d" % (g.name, which, i))
    elif field:
        field.add().CopyFrom(field[rng.randrange(len(field))])
        log.append("subgraph %r duplicates an %s" % (g.name, which))
    else:
        return False
    return True


MUTATIONS = [mutate_attribute, mutate_attribute, mutate_dims,
             mutate_initializer, mutate_edge, mutate_opset, mutate_subgraph]


def classify(proc, output):
    """The bug a finished mlc-compile shows, or None."""
    err = proc.stderr
    if "AddressSanitizer" in err or "runtime error:" in err or \
            "LeakSanitizer" in err:
        return "sanitizer"
    if proc.returncode < 0 or proc.returncode > 1:
        return "crash"
    if proc.returncode == 1:
        if "error" not in err:
            return "silent"
        if os.path.exists(output):
            return "leftover"
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mlc-bin", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--data-dir", default=DATA_DIR)
    p.add_argument("--iterations", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--out", default="fuzz-findings")
    p.add_argument("--full", action="store_true",
                   help="compile to model.so, not only to MLIR")
    p.add_argument("--seeds", default="",
                   help="only seed tests whose name matches this regex "
                        "(e.g. 'if|loop|scan|sequence')")
    opts = p.parse_args()

    compiler = os.path.join(opts.mlc_bin, "mlc-compile")
    if not os.access(compiler, os.X_OK):
        sys.exit("fuzz-onnx.py: no mlc-compile in %s (--mlc-bin)" %
                 opts.mlc_bin)
    with open(os.path.join(ROOT, "test", "onnx", "expected_pass.txt")) as f:
        names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    names = [n for n in names if re.search(opts.seeds, n)]
    seeds = [os.path.join(opts.data_dir, n, "model.onnx") for n in names]
    seeds = [s for s in seeds if os.path.exists(s)]
    if not seeds:
        sys.exit("fuzz-onnx.py: no seed models under %s (install "
                 "libonnx-testdata or pass --data-dir)" % opts.data_dir)

    rng = random.Random(opts.seed)
    counts = {"accepted": 0, "refused": 0}
    bugs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for it in range(opts.iterations):
            seed_path = rng.choice(seeds)
            m = onnx.load(seed_path)
            log = ["seed %s" % seed_path]
            for _ in range(rng.randint(1, 3)):
                rng.choice(MUTATIONS)(m, rng, log)
            model_path = os.path.join(tmp, "m.onnx")
            with open(model_path, "wb") as f:
                f.write(m.SerializeToString())
            output = os.path.join(tmp, "m.so" if opts.full else "m.mlir")
            if os.path.exists(output):
                os.remove(output)
            cmd = [compiler, model_path, "-o", output]
            if not opts.full:
                cmd.append("--emit=mlir")
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      errors="replace", timeout=opts.timeout)
                kind = classify(proc, output)
                detail = proc.stderr[-2000:]
            except subprocess.TimeoutExpired:
                kind, detail = "hang", ""
            if kind is None:
                counts["accepted" if proc.returncode == 0 else "refused"] += 1
                continue
            bugs += 1
            counts[kind] = counts.get(kind, 0) + 1
            os.makedirs(opts.out, exist_ok=True)
            stem = os.path.join(opts.out, "%s-%d" % (kind, it))
            with open(stem + ".onnx", "wb") as f:
                f.write(m.SerializeToString())
            with open(stem + ".txt", "w") as f:
                f.write("\n".join(log) + "\n\n" + detail)
            print("%s: iteration %d (%s)" % (kind, it, "; ".join(log)),
                  flush=True)
    print("fuzz-onnx: %d iterations, seed %d: %s" %
          (opts.iterations, opts.seed,
           ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
