#!/usr/bin/python3
"""Runs ONNX's backend node tests through mlc-compile and mlc-run.

Each test directory holds model.onnx and test_data_set_*/{input,output}_K.pb.
For every test: compile model.onnx to a model.so, then run every data set
with its inputs and check the outputs against the reference ones. Each test
ends up in exactly one class:

  pass         compiled, and every data set matched
  unsupported  mlc-compile refused cleanly (exit 1 with an 'error:' message),
               or the test needs compile-time bound inputs that differ across
               data sets
  wrong        compiled, but mlc-run found a mismatch ('does not match'), an
               output of another type/shape, or the run itself failed
               ('run failed')
  crash        a signal, another exit code, a timeout, a compile that left no
               model.so, or mlc-run failing on its inputs for another reason

Shape-determining inputs (Reshape's shape, Slice's starts, ...) must be
compile-time constants for a static-shape compiler: when mlc-compile's error
names `--bind NAME=FILE`, the compile is retried with data set 0's file for
NAME (up to 4 rounds), and mlc-run gets only the remaining inputs.

See test/onnx/README.md. The final line of the output is always
  onnx-node-tests: total=N pass=P unsupported=U wrong=W crash=C (bound=B)
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DEFAULT_DATA_DIR = "/usr/share/libonnx-testdata/data/node"
DEFAULT_RTOL = 1e-3
DEFAULT_ATOL = 1e-5
MAX_BIND_ROUNDS = 4

# Per-test tolerance overrides: 'test_name': (rtol, atol, 'why'). Keep each
# justified; a looser tolerance hides real bugs.
_BF16_ULP = (2.0 ** -7, 0.0,
             "ONNX 1.12's reference truncates float32 to bfloat16; mlc rounds to nearest even (IEEE, and ONNX from 1.14 on): they differ by at most one bfloat16 ulp, 2^-7 relative")
TOLERANCES = {
    "test_cast_FLOAT_to_BFLOAT16": _BF16_ULP,
    "test_castlike_FLOAT_to_BFLOAT16": _BF16_ULP,
    "test_castlike_FLOAT_to_BFLOAT16_expanded": _BF16_ULP,
}

# Tests whose reference outputs were not computed from their model; each
# is reported unsupported with the reason. Keep each justified.
MISMATCHED_DATA = {
    "test_adam_multiple":
        "ONNX 1.12's generator gives its numpy reference epsilon=1e-2 but "
        "not the node, which has Adam's default 1e-6 (test_adam passes "
        "epsilon to both)",
}

STATUSES = ("pass", "unsupported", "wrong", "crash")

BIND_RE = re.compile(r"--bind[ =]['\"]?([^\s'\"=]+)['\"]?=FILE")
# "unsupported ONNX operator 'X' (opset N) at node 'n'", and the partial
# support form "unsupported <what> in ONNX operator 'X' (opset N) ...".
OP_RE = re.compile(r"unsupported (?:(.*?) in )?ONNX operator '([^']*)' "
                   r"\(opset (\d+)\)")
DTYPE_RE = re.compile(r"unsupported\b.*?\b(?:dtype|element type)\b"
                      r"(?:\s+'?([\w.:]+)'?)?")


class Result:
    def __init__(self, name):
        self.name = name
        self.status = None
        self.reason = ""    # short key used to tally (unsupported: op name)
        self.message = ""   # first error line, or the tail of the output
        self.seconds = 0.0
        self.bound = []     # names bound at compile time

    def set(self, status, reason, message=""):
        self.status = status
        self.reason = reason
        self.message = message
        return self

    def to_json(self):
        return {"status": self.status, "reason": self.reason,
                "message": self.message, "seconds": round(self.seconds, 3),
                "bound": self.bound}


# ---------------------------------------------------------------------------
# Test data
# ---------------------------------------------------------------------------

def numbered(directory, prefix):
    """input_0.pb, input_1.pb, ... in numeric order."""
    pattern = re.compile(re.escape(prefix) + r"_(\d+)\.pb$")
    found = []
    for f in os.listdir(directory):
        m = pattern.match(f)
        if m:
            found.append((int(m.group(1)), os.path.join(directory, f)))
    return [p for _, p in sorted(found)]


def data_sets(test_dir):
    sets = []
    for d in os.listdir(test_dir):
        m = re.match(r"test_data_set_(\d+)$", d)
        if m and os.path.isdir(os.path.join(test_dir, d)):
            sets.append((int(m.group(1)), os.path.join(test_dir, d)))
    return [p for _, p in sorted(sets)]


def _varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def pb_tensor_name(path):
    """The `name` field (8) of a serialized TensorProto, without onnx."""
    with open(path, "rb") as f:
        buf = f.read()
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, pos = _varint(buf, pos)
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        elif wire == 2:
            n, pos = _varint(buf, pos)
            if field == 8:
                return buf[pos:pos + n].decode("utf-8", "replace")
            pos += n
        else:
            raise ValueError("unsupported wire type %d" % wire)
    return ""


def model_graph_inputs(test_dir):
    """model.onnx's graph inputs that are not initializers, in order; None
    without the onnx package or when model.onnx does not parse (then
    mlc-compile has the say)."""
    try:
        import onnx
        model = onnx.load(os.path.join(test_dir, "model.onnx"),
                          load_external_data=False)
    except Exception:
        return None
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def graph_input_names(inputs, set0):
    """Names of the graph inputs that are not initializers, in order: from
    `inputs` (model_graph_inputs), else from data set 0's TensorProtos."""
    if inputs is not None:
        return [i.name for i in inputs]
    names = []
    for f in numbered(set0, "input"):
        try:
            names.append(pb_tensor_name(f))
        except (OSError, ValueError):
            names.append("")
    return names


def declared_shape_mismatch(inputs, set0):
    """A message when data set 0 feeds an input a tensor whose dims differ
    from the model's own static declaration (a few ONNX tests do): no
    static-shape compiler can run such a test as given. None otherwise, or
    when `inputs` (model_graph_inputs) is None."""
    if inputs is None:
        return None
    import onnx
    for k, (v, f) in enumerate(zip(inputs, numbered(set0, "input"))):
        dims = v.type.tensor_type.shape.dim
        if not v.type.HasField("tensor_type") or not all(
                d.HasField("dim_value") for d in dims):
            continue
        t = onnx.TensorProto()
        with open(f, "rb") as fh:
            t.ParseFromString(fh.read())
        declared = [d.dim_value for d in dims]
        if list(t.dims) != declared:
            return ("test data does not match the model: input '%s' is "
                    "declared %s but input_%d.pb holds %s" %
                    (v.name, declared, k, list(t.dims)))
    return None


def same_tensor(a, b):
    """Whether two TensorProto files hold the same tensor."""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        da, db = fa.read(), fb.read()
    if da == db:
        return True
    try:
        import numpy as np
        from onnx import TensorProto, numpy_helper
        ta, tb = TensorProto(), TensorProto()
        ta.ParseFromString(da)
        tb.ParseFromString(db)
        xa, xb = numpy_helper.to_array(ta), numpy_helper.to_array(tb)
        return (xa.dtype == xb.dtype and xa.shape == xb.shape
                and np.array_equal(xa, xb))
    except Exception:
        return False


# ---------------------------------------------------------------------------
# Running tools
# ---------------------------------------------------------------------------

class Proc:
    def __init__(self, returncode, output, timed_out, seconds):
        self.returncode = returncode
        self.output = output
        self.timed_out = timed_out
        self.seconds = seconds


def run_tool(cmd, timeout):
    """Runs cmd in its own process group (mlc-compile runs the linker), with
    stdout and stderr merged; kills the whole group on timeout."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        timed_out = True
    return Proc(p.returncode, out.decode("utf-8", "replace"), timed_out,
                time.monotonic() - start)


def first_error_line(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip()[:300] if lines else ""


def tail(text, lines=6):
    return "\n".join(text.rstrip().splitlines()[-lines:])


def signal_name(returncode):
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return "signal %d" % -returncode


def abnormal(proc, tool, timeout):
    """A crash description when proc timed out, died by a signal, or exited
    with a code other than 0/1; otherwise None."""
    if proc.timed_out:
        return "%s timed out after %gs" % (tool, timeout)
    if proc.returncode < 0:
        return "%s killed by %s" % (tool, signal_name(proc.returncode))
    if proc.returncode not in (0, 1):
        return "%s exited with %d" % (tool, proc.returncode)
    return None


def unsupported_reason(line):
    m = OP_RE.search(line)
    if m:
        if m.group(1):  # the op is known, something about this node is not
            return "%s: %s" % (m.group(2), normalize(m.group(1)))
        return m.group(2)
    m = DTYPE_RE.search(line)
    if m:
        return "dtype " + m.group(1) if m.group(1) else "dtype"
    # Group similar messages: drop the 'file: ' prefix, quoted names, numbers.
    msg = line.split("error:", 1)[1].strip() if "error:" in line else line
    return normalize(msg)[:80] or "(no message)"


def normalize(msg):
    """Groups similar messages: quoted names -> '_', numbers -> N."""
    msg = re.sub(r"'[^']*'", "'_'", msg)
    return re.sub(r"\d+", "N", msg).strip()


# ---------------------------------------------------------------------------
# One test
# ---------------------------------------------------------------------------

def run_test(name, opts, work_root):
    res = Result(name)
    start = time.monotonic()
    try:
        if opts.run_compiled:
            run_compiled_test(res, opts, work_root)
        else:
            run_test_inner(res, opts, work_root)
            if opts.compile_only and res.status != "compiled":
                os.makedirs(os.path.join(work_root, name), exist_ok=True)
                with open(os.path.join(work_root, name, "result.json"),
                          "w") as f:
                    json.dump(res.to_json(), f)
    except Exception as e:  # a runner bug or unreadable test data
        res.set("crash", "runner error", "run_node_tests.py: %s: %s" %
                (type(e).__name__, e))
    res.seconds = time.monotonic() - start
    return res


def run_test_inner(res, opts, work_root):
    name = res.name
    test_dir = os.path.join(opts.data_dir, name)
    model = os.path.join(test_dir, "model.onnx")
    if not os.path.isfile(model):
        return res.set("crash", "missing test", "no such test: " + test_dir)
    sets = data_sets(test_dir)
    if not sets:
        return res.set("crash", "missing test", "no test_data_set_* in " +
                       test_dir)
    work = os.path.join(work_root, name)
    os.makedirs(work, exist_ok=True)
    so = os.path.join(work, "model.so")
    compile_bin = os.path.join(opts.mlc_bin, "mlc-compile")
    timeout = opts.timeout

    if res.name in MISMATCHED_DATA:
        return res.set("unsupported", "test data does not match the model",
                       MISMATCHED_DATA[res.name])
    declared_inputs = model_graph_inputs(test_dir)
    mismatch = declared_shape_mismatch(declared_inputs, sets[0])
    if mismatch:
        return res.set("unsupported", "test data does not match the model",
                       mismatch)

    # Compile, binding inputs the compiler asks for.
    bound = {}          # name -> input index K
    input_names = None
    log = []
    for round_ in range(MAX_BIND_ROUNDS + 1):
        cmd = [compile_bin, model, "-o", so] + opts.target
        for bname, k in bound.items():
            cmd += ["--bind", "%s=%s" % (
                bname, os.path.join(sets[0], "input_%d.pb" % k))]
        proc = run_tool(cmd, timeout)
        log.append("$ " + " ".join(cmd) + "\n" + proc.output)
        crash = abnormal(proc, "mlc-compile", timeout)
        if crash:
            return res.set("crash", crash, crash + "\n" + tail(proc.output))
        if proc.returncode == 0:
            break
        if "error:" not in proc.output:
            return res.set("crash", "mlc-compile failed without 'error:'",
                           tail(proc.output))
        wanted = [n for n in BIND_RE.findall(proc.output) if n not in bound]
        if not wanted or round_ == MAX_BIND_ROUNDS:
            line = first_error_line(proc.output)
            return res.set("unsupported", unsupported_reason(line), line)
        if input_names is None:
            input_names = graph_input_names(declared_inputs, sets[0])
        for n in dict.fromkeys(wanted):
            if n not in input_names:
                line = first_error_line(proc.output)
                return res.set("unsupported",
                               "--bind of '%s', not a graph input" % n, line)
            bound[n] = input_names.index(n)
    res.bound = sorted(bound)
    if opts.keep:
        with open(os.path.join(work, "compile.log"), "w") as f:
            f.write("\n".join(log))
    if not os.path.isfile(so):
        return res.set("crash", "mlc-compile succeeded but wrote no model.so",
                       tail(proc.output))

    # Bound inputs are baked into the model: every data set must agree.
    for s in sets[1:]:
        for bname, k in bound.items():
            f0 = os.path.join(sets[0], "input_%d.pb" % k)
            fk = os.path.join(s, "input_%d.pb" % k)
            if not os.path.isfile(fk) or not same_tensor(f0, fk):
                return res.set("unsupported",
                               "bound input differs across data sets",
                               "input '%s' of %s differs from %s" %
                               (bname, os.path.basename(s),
                                os.path.basename(sets[0])))

    rtol, atol = opts.rtol, opts.atol
    if name in TOLERANCES:
        rtol, atol = TOLERANCES[name][0], TOLERANCES[name][1]
    skip = set(bound.values())
    runs = [(os.path.basename(s),
             [f for k, f in enumerate(numbered(s, "input")) if k not in skip],
             numbered(s, "output")) for s in sets]
    if opts.compile_only:
        return write_plan(res, work, runs, rtol, atol)
    return run_data_sets(res, opts, work, so, runs, rtol, atol)


def write_plan(res, work, runs, rtol, atol):
    """--compile-only: copies the data sets' files next to model.so and
    writes plan.json, so that --run-compiled can check the model on another
    machine (a GPU one without the compiler)."""
    plan = {"rtol": rtol, "atol": atol, "bound": res.bound, "sets": []}
    for where, inputs, outputs in runs:
        os.makedirs(os.path.join(work, where), exist_ok=True)
        rel = []
        for f in inputs + outputs:
            r = os.path.join(where, os.path.basename(f))
            shutil.copyfile(f, os.path.join(work, r))
            rel.append(r)
        plan["sets"].append({"name": where, "inputs": rel[:len(inputs)],
                             "outputs": rel[len(inputs):]})
    with open(os.path.join(work, "plan.json"), "w") as f:
        json.dump(plan, f)
    return res.set("compiled", "")


def run_data_sets(res, opts, work, so, runs, rtol, atol):
    """Runs model.so on every data set; a pass when all match."""
    run_bin = os.path.join(opts.mlc_bin, "mlc-run")
    timeout = opts.timeout
    for where, inputs, outputs in runs:
        cmd = [run_bin, so]
        for f in inputs:
            cmd += ["-i", f]
        for f in outputs:
            cmd += ["--expect", f]
        cmd += ["--rtol", repr(rtol), "--atol", repr(atol)]
        proc = run_tool(cmd, timeout)
        if opts.keep:
            with open(os.path.join(work, "run-%s.log" % where), "w") as f:
                f.write("$ " + " ".join(cmd) + "\n" + proc.output)
        crash = abnormal(proc, "mlc-run", timeout)
        if crash:
            return res.set("crash", crash, "%s on %s\n%s" %
                           (crash, where, tail(proc.output)))
        if proc.returncode == 0:
            continue
        out = proc.output
        if "does not match" in out:
            return res.set("wrong", "mismatch", "%s: %s" % (where, tail(out)))
        if re.search(r"output '[^']*' is .* but '[^']*' holds", out):
            return res.set("wrong", "output type", "%s: %s" % (where, tail(out)))
        if "run failed" in out:
            return res.set("wrong", "run failed", "%s: %s" % (where, tail(out)))
        return res.set("crash", "mlc-run failed on its inputs",
                       "%s: %s" % (where, tail(out)))
    return res.set("pass", "")


def run_compiled_test(res, opts, work_root):
    """--run-compiled: the plan.json that --compile-only wrote, or the
    result it recorded for a test that did not compile."""
    work = os.path.join(work_root, res.name)
    plan_file = os.path.join(work, "plan.json")
    if not os.path.isfile(plan_file):
        try:
            with open(os.path.join(work, "result.json")) as f:
                r = json.load(f)
        except OSError:
            return res.set("crash", "missing test",
                           "no plan.json or result.json in " + work)
        res.bound = r["bound"]
        return res.set(r["status"], r["reason"], r["message"])
    with open(plan_file) as f:
        plan = json.load(f)
    res.bound = plan["bound"]
    runs = [(s["name"], [os.path.join(work, p) for p in s["inputs"]],
             [os.path.join(work, p) for p in s["outputs"]])
            for s in plan["sets"]]
    return run_data_sets(res, opts, work, os.path.join(work, "model.so"),
                         runs, plan["rtol"], plan["atol"])


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

def read_list(path):
    names = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names


def find_bin_dir(given, tool):
    if given:
        return os.path.abspath(given)
    exe = shutil.which(tool)
    if not exe:
        sys.exit("run_node_tests.py: error: %s is not on PATH; "
                 "pass --mlc-bin DIR" % tool)
    return os.path.dirname(os.path.abspath(exe))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run ONNX backend node tests through mlc-compile/mlc-run.")
    ap.add_argument("--data-dir", default=DEFAULT_DATA_DIR,
                    help="directory of node tests (default: %(default)s)")
    ap.add_argument("--mlc-bin", help="directory of mlc-compile and mlc-run "
                    "(default: found on PATH)")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="parallel tests (default: %(default)s)")
    ap.add_argument("--tests", help="only the tests listed in FILE (one name a "
                    "line, '#' comments)")
    ap.add_argument("--filter", help="only tests whose name matches REGEX "
                    "(re.search)")
    ap.add_argument("--expected-pass", metavar="FILE",
                    help="exit 1 if a test listed in FILE is not a pass")
    ap.add_argument("--write-expected", metavar="FILE",
                    help="write the sorted list of passing tests to FILE")
    ap.add_argument("--report", metavar="FILE.json",
                    help="write per-test status, reason and seconds")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep model.so and logs in DIR/<test>/")
    ap.add_argument("--compile-only", metavar="DIR",
                    help="compile only: DIR/<test>/ gets model.so, the data "
                    "sets' files and plan.json, for --run-compiled on another "
                    "machine (a GPU one without mlc-compile)")
    ap.add_argument("--run-compiled", metavar="DIR",
                    help="run what --compile-only wrote to DIR (needs only "
                    "mlc-run); the tests are DIR's, or --tests'")
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds per mlc-compile/mlc-run call "
                    "(default: %(default)s)")
    ap.add_argument("--target", default="cpu",
                    help="mlc-compile's --target: cpu (default), cuda, or "
                    "cuda-emulated (the CUDA kernels run on the CPU)")
    ap.add_argument("--rtol", type=float, default=DEFAULT_RTOL)
    ap.add_argument("--atol", type=float, default=DEFAULT_ATOL)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every test's result as it finishes")
    opts = ap.parse_args(argv)
    if opts.compile_only and opts.run_compiled:
        sys.exit("run_node_tests.py: error: --compile-only and "
                 "--run-compiled exclude each other")
    opts.mlc_bin = find_bin_dir(opts.mlc_bin, "mlc-run" if opts.run_compiled
                                else "mlc-compile")
    opts.target = ["--target=" + opts.target]
    if opts.run_compiled:
        opts.data_dir = opts.run_compiled
    if opts.compile_only or opts.run_compiled:
        opts.keep = opts.compile_only or opts.run_compiled

    if not os.path.isdir(opts.data_dir):
        sys.exit("run_node_tests.py: error: no test directory '%s' (install "
                 "libonnx-testdata or pass --data-dir)" % opts.data_dir)
    available = sorted(d for d in os.listdir(opts.data_dir)
                       if os.path.isdir(os.path.join(opts.data_dir, d)))
    if opts.tests:
        names = list(dict.fromkeys(read_list(opts.tests)))
    else:
        names = available
    if opts.filter:
        rx = re.compile(opts.filter)
        names = [n for n in names if rx.search(n)]

    if opts.keep:
        work_root = os.path.abspath(opts.keep)
        os.makedirs(work_root, exist_ok=True)
    else:
        work_root = tempfile.mkdtemp(prefix="mlc-onnx-node-")

    results = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
            futures = {pool.submit(run_test, n, opts, work_root): n
                       for n in names}
            for fut in concurrent.futures.as_completed(futures):
                r = fut.result()
                results[r.name] = r
                if opts.verbose:
                    extra = " (bound: %s)" % ", ".join(r.bound) if r.bound else ""
                    why = ": " + r.reason if r.reason else ""
                    print("%-11s %s%s%s [%.1fs]" % (r.status.upper(), r.name,
                          why, extra, r.seconds), flush=True)
                if not opts.keep:
                    shutil.rmtree(os.path.join(work_root, r.name),
                                  ignore_errors=True)
    finally:
        if not opts.keep:
            shutil.rmtree(work_root, ignore_errors=True)

    ordered = [results[n] for n in sorted(results)]
    counts = collections.Counter(r.status for r in ordered)
    passes = [r.name for r in ordered if r.status == "pass"]
    bound_passes = sum(1 for r in ordered if r.status == "pass" and r.bound)

    for status in ("wrong", "crash"):
        bad = [r for r in ordered if r.status == status]
        if bad:
            print("%s (%d):" % (status, len(bad)))
            for r in bad:
                print("  %s: %s" % (r.name, r.reason))
                for line in r.message.splitlines()[-6:]:
                    print("      " + line)
    reasons = collections.Counter(r.reason for r in ordered
                                  if r.status == "unsupported")
    if reasons:
        print("unsupported reasons (top 20 of %d):" % len(reasons))
        for reason, n in sorted(reasons.items(),
                                key=lambda kv: (-kv[1], kv[0]))[:20]:
            print("  %5d  %s" % (n, reason))

    if opts.report:
        with open(opts.report, "w") as f:
            json.dump({"summary": {s: counts.get(s, 0) for s in STATUSES},
                       "bound_passes": bound_passes,
                       "tests": {r.name: r.to_json() for r in ordered}},
                      f, indent=1, sort_keys=True)
            f.write("\n")
    if opts.write_expected:
        with open(opts.write_expected, "w") as f:
            f.write("# ONNX node tests that mlc passes; CI fails if one of "
                    "these stops passing.\n# Refresh with test/onnx/"
                    "run_node_tests.py --write-expected (see README.md).\n")
            for n in passes:
                f.write(n + "\n")

    status = 0
    if opts.expected_pass:
        missing = [n for n in read_list(opts.expected_pass)
                   if n not in results or
                   # --compile-only: compiling is all that can pass there.
                   results[n].status not in ("pass", "compiled")]
        if missing:
            status = 1
            sys.stdout.flush()
            print("error: %d expected-pass test(s) did not pass:" %
                  len(missing), file=sys.stderr)
            for n in missing:
                r = results.get(n)
                print("  %s: %s" % (n, "%s (%s)" % (r.status, r.reason)
                                    if r else "not run"), file=sys.stderr)
            sys.stderr.flush()

    if opts.compile_only:
        print("onnx-node-tests: compiled %d of %d into %s (unsupported=%d "
              "crash=%d)" % (counts["compiled"], len(ordered), opts.keep,
                             counts["unsupported"], counts["crash"]),
              flush=True)
        return status
    print("onnx-node-tests: total=%d pass=%d unsupported=%d wrong=%d crash=%d "
          "(bound=%d)" % (len(ordered), counts["pass"], counts["unsupported"],
                          counts["wrong"], counts["crash"], bound_passes),
          flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
