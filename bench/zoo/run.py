#!/usr/bin/python3
"""The model zoo: mlc against ONNX Runtime and PyTorch on 20 networks.

  bench/zoo/run.py [--out build/bench-zoo] [--bin build/bin] [--runs 20]
                   [--rounds 4] [--threads 2,1] [--opset 17|13|13,17]
                   [--models NAME,...] [--skip-torch] [--compile-flags F]

bench/perf/run.py's method on bench/zoo/make_models.py's networks (plain,
grouped, depthwise, concat-heavy, ConvNeXt, segmentation; two transformers as
guards), reusing that script's code: for each model (exported under
OUT/models/opset<N> when missing)
  mlc    perf's mlc_side(): `mlc-compile` under /usr/bin/time -v (compile
         time, peak memory), `mlc-run --expect` against PyTorch's reference;
         the .so is cached in OUT/work/opset<N> and compiled again only when
         the .onnx, mlc-compile or --compile-flags changed (a compile that
         runs past --compile-timeout is killed and reported)
  ORT    perf's ort_side(): onnxruntime-node via bench/perf/ort/time_ort.js
  torch  perf's torch_side(): the same nn.Module, eager, inference_mode
then, for each thread count of --threads in turn, perf's time_rounds(): the
three sides take turns round by round (--rounds), each round after --warmup
untimed runs, and each side's median pools its --runs timed runs (after
--wait-idle S, up to S seconds of waiting for a quiet machine). One
compiled .so serves every thread count (`mlc-run --threads T`); ORT gets T
intra-op threads, PyTorch torch.set_num_threads(T).

Correctness: see tolerance(); every side is checked the same way.

Prints the table (one column group per thread count, the geometric mean of
mlc/ORT and mlc/torch over the CNNs and, apart, over the transformers) and
writes OUT/results.json (every figure, the CPU and its vector ISA, versions,
load averages; rewritten after each model), OUT/results.md and OUT/zoo.png.
A model that fails to export, compile, run or match is a row with its reason.
"""

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PERF = os.path.join(ROOT, "bench", "perf")


def int_list(text):
    return [int(x) for x in text.split(",") if x]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench-zoo"),
                    help="output directory (default build/bench-zoo)")
    ap.add_argument("--bin", default=os.environ.get(
        "BIN_DIR", os.path.join(ROOT, "build", "bin")),
        help="mlc-compile and mlc-run (default $BIN_DIR or build/bin)")
    ap.add_argument("--runs", type=int, default=20,
                    help="timed runs per model, side and thread count "
                         "(default 20)")
    ap.add_argument("--rounds", type=int, default=4,
                    help="rounds the timed runs are split into, the sides "
                         "taking turns (default 4)")
    ap.add_argument("--warmup", type=int, default=3,
                    help="untimed runs before each round (default 3)")
    ap.add_argument("--settle", type=float, default=0.5,
                    help="pause before each side's round, s (default 0.5)")
    ap.add_argument("--threads", type=int_list, default=[2, 1],
                    help="thread counts, each measured in turn (default 2,1)")
    ap.add_argument("--opset", type=int_list, default=[17],
                    help="ONNX opset(s) to export at: 17, 13 or 13,17 "
                         "(default 17)")
    ap.add_argument("--models", default="",
                    help="comma-separated subset of the models")
    ap.add_argument("--compile-flags", default="",
                    help="extra mlc-compile flags, e.g. '-O3'")
    ap.add_argument("--compile-timeout", type=float, default=600,
                    help="kill mlc-compile after S seconds (default 600)")
    ap.add_argument("--run-timeout", type=float, default=900,
                    help="kill an mlc-run or node call after S seconds "
                         "(default 900)")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-4,
                    help="absolute tolerance per unit of the reference's "
                         "magnitude (see tolerance(); default 1e-4)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="before timing each model, wait up to S seconds "
                         "for the 1-minute load average to fall below "
                         "--idle-load (default 0: do not wait)")
    ap.add_argument("--idle-load", type=float, default=1.0)
    ap.add_argument("--skip-ort", action="store_true")
    ap.add_argument("--skip-torch", action="store_true")
    args = ap.parse_args()
    if not args.threads or min(args.threads) < 1:
        ap.error("--threads needs positive counts, e.g. 2,1")
    if not set(args.opset) <= {13, 17} or not args.opset:
        ap.error("--opset takes 13, 17 or 13,17")
    if args.runs < 3 or not 1 <= args.rounds <= args.runs:
        ap.error("--runs must be at least 3 and --rounds in 1..--runs")
    return args


ARGS = parse_args()
# bench/perf/run.py parses its command line when imported: give it one of
# its own (whose settings are overwritten below), then restore ours.
_argv = sys.argv
sys.argv = [os.path.join(PERF, "run.py"), "--threads", str(max(ARGS.threads)),
            "--out", ARGS.out, "--bin", ARGS.bin]
sys.path.insert(0, PERF)
import run as perf  # noqa: E402  (bench/perf/run.py; this file is __main__)
sys.argv = _argv
import make_models as perf_models  # noqa: E402  (bench/perf's, as perf uses)
import machine  # noqa: E402  (bench/zoo/machine.py, beside this file)
import numpy as np  # noqa: E402
import torch  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "zoo_make_models", os.path.join(HERE, "make_models.py"))
zoo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zoo)
_spec = importlib.util.spec_from_file_location(
    "zoo_report", os.path.join(HERE, "report.py"))
zoo_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zoo_report)
# perf's torch_side() rebuilds each model from perf_models.MODELS.
perf_models.MODELS.update(zoo.MODELS)


def tolerance(models, name):
    """The correctness check, one criterion for all three sides: every
    element of every output must satisfy

        |got - ref| <= atol + rtol * |ref|,
        rtol = --rtol (1e-3),  atol = --atol (1e-4) * max(1, max |ref|)

    where ref is PyTorch's output at export time (make_models' .out<i>.npy,
    the max over all the model's outputs). The absolute term scales with the
    output's magnitude: random-weight logits reach tens to thousands, and
    float32 rounding of a long sum (reassociated by every side's kernels)
    grows with its terms, so a fixed 1e-4 would flag correct results near
    zero crossings of large outputs. Sets bench/perf/run.py's ARGS.rtol and
    ARGS.atol, which its check() (ORT, torch) and `mlc-run --expect` (mlc)
    apply; returns atol."""
    meta = json.load(open(os.path.join(models, name + ".json")))
    peak = max(float(np.abs(np.load(os.path.join(
        models, "%s.out%d.npy" % (name, i)))).max())
        for i in range(len(meta["outputs"])))
    perf.ARGS.rtol = ARGS.rtol
    perf.ARGS.atol = ARGS.atol * max(1.0, peak)
    return perf.ARGS.atol


class Subprocess:
    """Stands in for the subprocess module inside bench/perf/run.py. Its
    mlc_side() compiles with `/usr/bin/time -v -o T mlc-compile M.onnx -o
    M.so ...`; this answers that call with success, without running it, when
    M.so is newer than M.onnx and was built by the same mlc-compile (size
    and mtime) with the same arguments (M.so.stamp): mlc_side then reads the
    compile time and memory of that build from T. Every call runs in its
    own process group, killed whole after --compile-timeout (mlc-compile)
    or --run-timeout (mlc-run, node) seconds."""

    def __init__(self):
        self.cached = False

    def __getattr__(self, attr):
        return getattr(subprocess, attr)

    def run(self, cmd, **kw):
        if cmd[0] != "/usr/bin/time" or \
                os.path.basename(cmd[4]) != "mlc-compile":
            limit = ARGS.run_timeout if cmd[0] in (
                perf.ARGS.node, os.path.join(perf.ARGS.bin, "mlc-run")) \
                else None
            return self.bounded(cmd, limit)
        compiler, onnx_path, so = cmd[4], cmd[5], cmd[7]
        st = os.stat(compiler)  # the same build of mlc-compile, same flags
        stamp = so + ".stamp"
        key = json.dumps([st.st_size, st.st_mtime_ns] + cmd[4:])
        self.cached = (os.path.exists(so) and os.path.exists(stamp) and
                       open(stamp).read() == key and
                       os.path.getmtime(so) > max(os.path.getmtime(onnx_path),
                                                  os.path.getmtime(compiler)))
        if self.cached:
            return subprocess.CompletedProcess(cmd, 0, "", "")
        for f in (so, stamp):
            if os.path.exists(f):
                os.remove(f)
        p = self.bounded(cmd, ARGS.compile_timeout)
        if p.returncode == 0:
            with open(stamp, "w") as f:
                f.write(key)
        return p

    @staticmethod
    def bounded(cmd, limit):
        with subprocess.Popen(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              start_new_session=True) as p:
            try:
                out, err = p.communicate(timeout=limit)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                out, err = p.communicate()
                return subprocess.CompletedProcess(
                    cmd, 124, out, err + "\n%s: killed after %.0f s\n" %
                    (os.path.basename(cmd[4] if cmd[0] == "/usr/bin/time"
                                      else cmd[0]), limit))
            return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def snapshot_tools():
    """Copies mlc-compile, mlc-run and the runtime archive mlc-compile links
    (../lib/libmlc_runtime.a) to OUT/tools, as bench/perf/run.py does, so
    that a rebuild during the run cannot swap them; copy2 keeps the mtimes
    the .so cache compares with. Returns OUT/tools/bin."""
    src = os.path.abspath(ARGS.bin)
    dst = os.path.join(ARGS.out, "tools")
    shutil.rmtree(dst, ignore_errors=True)
    for sub, path in (("bin", os.path.join(src, "mlc-compile")),
                      ("bin", os.path.join(src, "mlc-run")),
                      ("lib", os.path.join(os.path.dirname(src), "lib",
                                           "libmlc_runtime.a"))):
        os.makedirs(os.path.join(dst, sub), exist_ok=True)
        if os.path.exists(path):
            shutil.copy2(path, os.path.join(dst, sub))
    return os.path.join(dst, "bin")


def machine_info(ort_pkg):
    """The CPU (model name and vector ISA from /proc/cpuinfo), versions,
    settings and the load average before the run."""
    cpu = machine.cpu_info()
    compiler = os.path.join(perf.ARGS.bin, "mlc-compile")
    return {
        "cpu": cpu["cpu"], "family_model": cpu["family_model"],
        "cpus": os.cpu_count(), "isa": cpu["isa"],
        "avx512": "avx512f" in cpu["flags"],
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "loadavg_before": "%.2f %.2f %.2f" % os.getloadavg(),
        "ort": json.load(open(ort_pkg))["version"]
        if os.path.exists(ort_pkg) else None,
        "node": subprocess.run([perf.ARGS.node, "--version"],
                               capture_output=True, text=True).stdout.strip()
        if shutil.which(perf.ARGS.node) else None,
        "torch": torch.__version__,
        "torch_deb": perf.dpkg_version("python3-torch"),
        "torchvision_deb": perf.dpkg_version("python3-torchvision"),
        "mlc_bin": os.path.abspath(ARGS.bin),
        "mlc_compile_mtime": time.strftime("%Y-%m-%d %H:%M:%S",
                                           time.localtime(os.path.getmtime(
                                               compiler))),
        "threads": ARGS.threads, "opsets": ARGS.opset, "runs": ARGS.runs,
        "rounds": ARGS.rounds, "warmup": ARGS.warmup, "rtol": ARGS.rtol,
        "atol_per_magnitude": ARGS.atol,
        "compile_flags": ARGS.compile_flags,
    }


def wait_idle():
    """Waits up to --wait-idle seconds for the load to fall below
    --idle-load (other work on a shared machine skews every side)."""
    deadline = time.time() + ARGS.wait_idle
    while os.getloadavg()[0] >= ARGS.idle_load and time.time() < deadline:
        print("  waiting: load average %.2f" % os.getloadavg()[0], flush=True)
        time.sleep(min(15, max(1, deadline - time.time())))


def guarded(side, *args):
    """side(*args), or a failed side with the exception as its error."""
    try:
        return side(*args)
    except Exception as e:  # noqa: BLE001  a failure is a row, not fatal
        return {"status": "failed", "error": repr(e)[:300]}


def measure(name, opset, models, work, shim):
    """One model at one opset: check every side once, then time them at
    every thread count. Returns its results row."""
    meta = json.load(open(os.path.join(models, name + ".json")))
    r = {"name": name, "opset": opset, "family": meta["family"],
         "description": meta["description"], "batch": meta["batch"],
         "flops": meta["flops"], "params": meta["params"],
         "atol": tolerance(models, name)}
    print("  mlc: compile + check...", end="", flush=True)
    shim.cached = False
    r["mlc"] = guarded(perf.mlc_side, name, models, work)
    r["mlc"]["compile_cached"] = shim.cached
    print(" %s%s (%s s)" % (r["mlc"]["status"], ", cached" if shim.cached
                            else "", "%.1f" % r["mlc"]["compile_s"]
                            if "compile_s" in r["mlc"] else "?"), flush=True)
    sides = ["mlc"]
    if not ARGS.skip_ort:
        print("  ORT: check...", end="", flush=True)
        r["ort"] = guarded(perf.ort_side, name, models, work)
        print(" " + r["ort"]["status"], flush=True)
        sides.append("ort")
    if not ARGS.skip_torch:
        print("  torch: check...", end="", flush=True)
        r["torch"] = guarded(perf.torch_side, name, models)
        print(" " + r["torch"]["status"], flush=True)
        sides.append("torch")
    r["threads"] = {}
    wait_idle()
    for t in ARGS.threads:
        print("  timing, %d thread%s..." % (t, "s" * (t > 1)), end="",
              flush=True)
        perf.ARGS.threads = t
        torch.set_num_threads(t)
        rt = {side: dict(r[side]) for side in sides}
        rt["load1"] = os.getloadavg()[0]
        perf.time_rounds(rt, sides)
        for side in sides:  # keep the timing; the checks are in r[side]
            rt[side] = {k: v for k, v in rt[side].items()
                        if k in ("median_ms", "min_ms", "runs", "status") or
                        k == "error" and v != r[side].get("error")}
        rt["mlc_over_ort"] = perf.ratio(rt["mlc"], rt.get("ort"))
        rt["mlc_over_torch"] = perf.ratio(rt["mlc"], rt.get("torch"))
        r["threads"][str(t)] = rt
        print(" mlc %s, ORT %s, torch %s ms" % tuple(
            perf.fmt_ms(rt.get(s)) for s in zoo_report.SIDES), flush=True)
    for side in sides:
        r[side].pop("timer", None)
    return r


def write(results, info):
    with open(os.path.join(ARGS.out, "results.json"), "w") as f:
        json.dump({"info": info, "results": results}, f, indent=1)


def main():
    names, ort_pkg = perf.check_setup(zoo.MODELS, "zoo/run.py", ARGS)
    os.makedirs(ARGS.out, exist_ok=True)
    for k in ("runs", "rounds", "warmup", "settle", "compile_flags"):
        setattr(perf.ARGS, k, getattr(ARGS, k))
    perf.ARGS.bin = snapshot_tools()
    shim = perf.subprocess = Subprocess()
    torch.set_num_interop_threads(1)
    info = machine_info(ort_pkg)
    print("%s (%s), %d CPUs; load average %s; threads %s; opset %s" % (
        info["cpu"], " ".join(info["isa"]), info["cpus"],
        info["loadavg_before"], ",".join(map(str, ARGS.threads)),
        ",".join(map(str, ARGS.opset))), flush=True)

    results = []
    for opset in ARGS.opset:
        models = os.path.join(ARGS.out, "models", "opset%d" % opset)
        work = os.path.join(ARGS.out, "work", "opset%d" % opset)
        os.makedirs(work, exist_ok=True)
        for i, name in enumerate(names):
            print("[%d/%d] %s (opset %d)" % (i + 1, len(names), name, opset),
                  flush=True)
            if not os.path.exists(os.path.join(models, name + ".json")):
                print("  export...", flush=True)
                p = subprocess.run(
                    [sys.executable, os.path.join(HERE, "make_models.py"),
                     "--out", models, "--opset", str(opset), name],
                    capture_output=True, text=True)
                if p.returncode != 0:
                    results.append({
                        "name": name, "opset": opset,
                        "family": zoo.FAMILY[name], "batch": "?", "flops": 0,
                        "atol": None, "mlc": {"status": "export failed",
                                              "error": perf.tail(p.stderr)}})
                    print("  export failed: " + perf.tail(p.stderr))
                    continue
            results.append(measure(name, opset, models, work, shim))
            write(results, info)
    info["loadavg_after"] = "%.2f %.2f %.2f" % os.getloadavg()
    write(results, info)
    data = {"info": info, "results": results}
    print()
    print(zoo_report.text_table(data), end="")
    with open(os.path.join(ARGS.out, "results.md"), "w") as f:
        f.write(zoo_report.markdown(data))
    png = os.path.join(ARGS.out, "zoo.png")
    made = zoo_report.chart(data, png)
    print("wrote %s/results.json, results.md%s" % (
        ARGS.out, " and zoo.png" if made else ""))


if __name__ == "__main__":
    main()
