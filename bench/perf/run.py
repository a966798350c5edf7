#!/usr/bin/python3
"""mlc against ONNX Runtime, PyTorch and OpenBLAS, all measured in one run.

  bench/perf/run.py [--out DIR] [--runs 30] [--threads 2] [--bin DIR]
                    [--models NAME,...] [--skip-ort] [--skip-torch]

For every model of make_models.py (created under DIR/models when missing):
  mlc    compile with `mlc-compile MODEL.onnx -o MODEL.so` under
         `/usr/bin/time -v` (wall time and maximum resident set size of the
         compiler), check the outputs against PyTorch's reference
         (`mlc-run --expect`, rtol 1e-3, atol 1e-4), time with
         `mlc-run --bench N --threads THREADS` (median)
  ORT    ONNX Runtime's CPU provider through onnxruntime-node
         (bench/perf/ort/time_ort.js: intra-op threads THREADS, inter-op 1,
         sequential); its outputs are checked the same way
  torch  the same nn.Module (rebuilt from the same seed) with
         torch.set_num_threads(THREADS) under torch.inference_mode(), checked
         the same way
and for SGEMM 256/512/1024 also numpy's matmul on OpenBLAS
(OPENBLAS_NUM_THREADS=THREADS), reported in GFLOP/s.

The timed runs of every side are split into --rounds rounds (default 5) and
the sides take turns, round by round, so that a slow spell on a shared machine
falls on all of them; each side's median pools all its runs.

Prints a table of medians and ratios and writes DIR/results.json and the chart
DIR/perf.png. A model that fails to compile, to run or to match the reference
is reported in the table, not fatal. The test suite times nothing; this script
is the only place these numbers come from.
"""

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"),
                    help="output directory (default build/bench)")
    ap.add_argument("--bin", default=os.environ.get(
        "BIN_DIR", os.path.join(ROOT, "build", "bin")),
        help="directory of mlc-compile and mlc-run (default $BIN_DIR or "
             "build/bin)")
    ap.add_argument("--runs", type=int, default=30,
                    help="timed runs per model and side (default 30, >= 30)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="the timed runs of each side are split into this "
                         "many rounds, the sides taking turns (default 5)")
    ap.add_argument("--settle", type=float, default=0.5,
                    help="seconds to wait before each side's round, so that "
                         "the threads of the side before have gone idle "
                         "(default 0.5)")
    ap.add_argument("--warmup", type=int, default=5,
                    help="untimed runs before each round (default 5)")
    ap.add_argument("--threads", type=int, default=2,
                    help="threads of mlc, ONNX Runtime, PyTorch and OpenBLAS "
                         "(default 2)")
    ap.add_argument("--models", default="",
                    help="comma-separated subset of the models")
    ap.add_argument("--compile-flags", default="",
                    help="extra mlc-compile flags, e.g. '-O3'")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--skip-ort", action="store_true")
    ap.add_argument("--skip-torch", action="store_true")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="before starting, wait up to S seconds for the "
                         "1-minute load average to fall below 0.5 (default "
                         "0: do not wait)")
    ap.add_argument("--node", default=shutil.which("node") or "node")
    args = ap.parse_args()
    if args.runs < 30:
        ap.error("--runs must be at least 30")
    if not 1 <= args.rounds <= args.runs:
        ap.error("--rounds must be between 1 and --runs")
    return args


ARGS = parse_args()
# Before numpy and torch load OpenBLAS / OpenMP.
os.environ["OPENBLAS_NUM_THREADS"] = str(ARGS.threads)
os.environ["OMP_NUM_THREADS"] = str(ARGS.threads)

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, HERE)
import make_models  # noqa: E402
import report  # noqa: E402

SGEMM = ("sgemm_256", "sgemm_512", "sgemm_1024")


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def check(got, expected):
    """(matches, max abs error) with |got - exp| <= atol + rtol * |exp|."""
    got = np.asarray(got, np.float32)
    if got.shape != expected.shape:
        return False, float("inf")
    err = np.abs(got.astype(np.float64) - expected)
    ok = bool(np.all(err <= ARGS.atol + ARGS.rtol * np.abs(expected)))
    return ok, float(err.max()) if err.size else 0.0


def tail(text, n=3):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])


def dpkg_version(pkg):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                              capture_output=True, text=True).stdout or None
    except OSError:
        return None


def openblas_info():
    """The OpenBLAS numpy really uses (from this process's mappings)."""
    import ctypes
    np.ones((2, 2), np.float32) @ np.ones((2, 2), np.float32)
    libs = sorted({l.split()[-1] for l in open("/proc/self/maps")
                   if "blas" in l and "/" in l})
    info = {"numpy_blas_libraries": libs, "config": None, "threads": None}
    for lib in libs:
        if "openblas" in lib:
            try:
                so = ctypes.CDLL(lib)
                so.openblas_get_config.restype = ctypes.c_char_p
                info["config"] = so.openblas_get_config().decode()
                info["threads"] = so.openblas_get_num_threads()
            except (OSError, AttributeError):
                pass
    return info


# ---------------------------------------------------------------------------
# The three (four) sides
# ---------------------------------------------------------------------------

def mlc_side(name, models, work):
    r = {"status": None}
    onnx_path = os.path.join(models, name + ".onnx")
    so = os.path.join(work, name + ".so")
    timefile = os.path.join(work, name + ".time")
    cmd = (["/usr/bin/time", "-v", "-o", timefile,
            os.path.join(ARGS.bin, "mlc-compile"), onnx_path, "-o", so,
            "--report", os.path.join(work, name + ".report.json")] +
           ARGS.compile_flags.split())
    p = subprocess.run(cmd, capture_output=True, text=True)
    tv = open(timefile).read() if os.path.exists(timefile) else ""
    if p.returncode in (126, 127):  # /usr/bin/time could not start it
        tv = ""
    m = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",
                  tv)
    if m:
        r["compile_s"] = (int(m.group(1) or 0) * 3600 +
                          int(m.group(2)) * 60 + float(m.group(3)))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", tv)
    if m:
        r["compile_rss_mib"] = int(m.group(1)) / 1024
    if p.returncode != 0:
        r["status"] = "compile failed"
        r["error"] = tail(p.stderr)
        return r

    meta = json.load(open(os.path.join(models, name + ".json")))
    n_in, n_out = len(meta["inputs"]), len(meta["outputs"])
    ins = []
    for i in range(n_in):
        ins += ["-i", os.path.join(models, "%s.in%d.npy" % (name, i))]
    outdir = os.path.join(work, name + ".out")
    cmd = [os.path.join(ARGS.bin, "mlc-run"), so] + ins + ["-o", outdir,
                                                          "--rtol", str(ARGS.rtol),
                                                          "--atol", str(ARGS.atol)]
    for i in range(n_out):
        cmd += ["--expect", os.path.join(models, "%s.out%d.npy" % (name, i))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    errs = []
    ok = p.returncode == 0
    for i, (oname, _) in enumerate(meta["outputs"]):
        f = os.path.join(outdir, oname + ".npy")
        if os.path.exists(f):
            errs.append(check(np.load(f), np.load(os.path.join(
                models, "%s.out%d.npy" % (name, i))))[1])
    r["max_abs_err"] = max(errs) if errs else None
    if not ok:
        r["status"] = "wrong" if errs else "run failed"
        r["error"] = tail(p.stdout + p.stderr)
    else:
        r["status"] = "ok"

    def timer(runs):
        p = subprocess.run([os.path.join(ARGS.bin, "mlc-run"), so] + ins +
                           ["--bench", str(runs), "--bench-times", "--warmup",
                            str(ARGS.warmup), "--threads", str(ARGS.threads)],
                           capture_output=True, text=True)
        m = re.search(r"times_ms=([\d.e+,-]+)", p.stdout)
        if p.returncode != 0 or not m:
            raise RuntimeError(tail(p.stdout + p.stderr))
        return [float(t) for t in m.group(1).split(",")]
    if r["status"] in ("ok", "wrong"):  # a wrong result is timed, marked !
        r["timer"] = timer
    return r


def ort_side(name, models, work):
    meta = json.load(open(os.path.join(models, name + ".json")))
    outdir = os.path.join(work, name + ".ort")

    def run(runs):
        cmd = [ARGS.node, os.path.join(HERE, "ort", "time_ort.js"),
               os.path.join(models, name + ".onnx"), outdir, "--runs",
               str(runs), "--warmup", str(ARGS.warmup), "--threads",
               str(ARGS.threads)]
        cmd += [os.path.join(models, "%s.in%d.npy" % (name, i))
                for i in range(len(meta["inputs"]))]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(tail(p.stderr))
        return json.loads(p.stdout.strip().splitlines()[-1])

    try:
        r = run(1)
    except RuntimeError as e:
        return {"status": "failed", "error": str(e)}
    del r["times_ms"], r["median_ms"], r["min_ms"], r["runs"]
    oks, errs = [], []
    for i in range(len(meta["outputs"])):
        ok, err = check(np.load(os.path.join(outdir, "out%d.npy" % i)),
                        np.load(os.path.join(models,
                                             "%s.out%d.npy" % (name, i))))
        oks.append(ok)
        errs.append(err)
    r["status"] = "ok" if all(oks) else "wrong"
    r["max_abs_err"] = max(errs)
    r["timer"] = lambda runs: run(runs)["times_ms"]
    return r


def torch_side(name, models):
    torch.manual_seed(0)
    model, _ = make_models.MODELS[name][0]()
    model.eval()
    meta = json.load(open(os.path.join(models, name + ".json")))
    xs = [torch.from_numpy(np.load(os.path.join(models, "%s.in%d.npy" %
                                                (name, i))))
          for i in range(len(meta["inputs"]))]
    with torch.inference_mode():
        y = model(*xs)
    ok, err = check(y.numpy(), np.load(os.path.join(models,
                                                    name + ".out0.npy")))

    def timer(runs):
        times = []
        with torch.inference_mode():
            for _ in range(ARGS.warmup):
                model(*xs)
            for _ in range(runs):
                t0 = time.perf_counter()
                model(*xs)
                times.append((time.perf_counter() - t0) * 1e3)
        return times
    return {"status": "ok" if ok else "wrong", "max_abs_err": err,
            "timer": timer}


def openblas_side(name, models):
    """numpy.matmul (OpenBLAS sgemm) into a preallocated output."""
    a = np.load(os.path.join(models, name + ".in0.npy"))
    b = np.load(os.path.join(models, name + ".in1.npy"))
    c = np.empty((a.shape[0], b.shape[1]), np.float32)
    np.matmul(a, b, out=c)
    ok, err = check(c, np.load(os.path.join(models, name + ".out0.npy")))

    def timer(runs):
        for _ in range(ARGS.warmup):
            np.matmul(a, b, out=c)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            np.matmul(a, b, out=c)
            times.append((time.perf_counter() - t0) * 1e3)
        return times
    return {"status": "ok" if ok else "wrong", "max_abs_err": err,
            "timer": timer}


def time_rounds(r, sides):
    """Times the sides in ARGS.rounds interleaved rounds (mlc, ORT, torch,
    OpenBLAS, then again), so that a slow spell of a shared machine falls on
    every side alike; each side's median and minimum pool all its runs."""
    per_round = [ARGS.runs // ARGS.rounds + (k < ARGS.runs % ARGS.rounds)
                 for k in range(ARGS.rounds)]
    times = {side: [] for side in sides}
    for runs in per_round:
        for side in sides:
            s = r[side]
            if "timer" not in s:
                continue
            # The previous side's threads spin a while after its last run
            # (OpenBLAS's for about 0.1 s, ours for 2 ms): let them sleep
            # before timing this one.
            time.sleep(ARGS.settle)
            try:
                times[side] += s["timer"](runs)
            except RuntimeError as e:
                s["status"], s["error"] = "run failed", str(e)
                del s["timer"]
    for side in sides:
        s = r[side]
        if s.pop("timer", None) and times[side]:
            s["median_ms"], s["min_ms"] = median(times[side]), min(times[side])
            s["runs"] = len(times[side])


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def fmt_ms(side):
    return report.fmt_ms(side, wrong="!", missing="-")


def ratio(a, b):
    if not a or not b or a.get("median_ms") is None or \
            b.get("median_ms") is None:
        return None
    return a["median_ms"] / b["median_ms"]


def fmt_ratio(x):
    return report.fmt_ratio(x, missing="-")


def correct_cell(r):
    m = r["mlc"]
    if m["status"] == "ok":
        return "yes"
    if m["status"] == "wrong":
        return "NO (err %.2g)" % m["max_abs_err"]
    return m["status"]


def print_table(results, info):
    hdr = ("%-13s %5s %10s %10s %10s %8s %9s %9s %8s %5s  %s" %
           ("model", "batch", "mlc ms", "ORT ms", "torch ms", "mlc/ORT",
            "mlc/torch", "compile s", "comp MiB", "load", "correct?"))
    print()
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        m = r["mlc"]
        print("%-13s %5s %10s %10s %10s %8s %9s %9s %8s %5.2f  %s" % (
            r["name"], r["batch"], fmt_ms(m), fmt_ms(r.get("ort")),
            fmt_ms(r.get("torch")), fmt_ratio(r.get("mlc_over_ort")),
            fmt_ratio(r.get("mlc_over_torch")),
            "%.2f" % m["compile_s"] if "compile_s" in m else "-",
            "%.0f" % m["compile_rss_mib"] if "compile_rss_mib" in m else "-",
            r["load1"], correct_cell(r)))
    gemms = [r for r in results if r["name"] in SGEMM]
    if gemms:
        print()
        hdr = ("%-6s %10s %10s %10s %10s %12s   (GFLOP/s, higher is better)"
               % ("SGEMM", "mlc", "OpenBLAS", "ORT", "torch", "mlc/OpenBLAS"))
        print(hdr)
        for r in gemms:
            g = r["gflops"]
            f = lambda k: "%.2f" % g[k] if g.get(k) else "-"  # noqa: E731
            print("%-6s %10s %10s %10s %10s %12s" % (
                r["name"].split("_")[1], f("mlc"), f("openblas"), f("ort"),
                f("torch"),
                "%.3f" % (g["mlc"] / g["openblas"])
                if g.get("mlc") and g.get("openblas") else "-"))
    print()
    print("median of %d runs in %d interleaved rounds (each after %d "
          "warm-up runs), ms (! = output did not match the reference); "
          "ratios above 1: mlc is slower" %
          (ARGS.runs, ARGS.rounds, ARGS.warmup))
    print("mlc: %d threads (mlc-run, no Python); ORT %s: %d intra-op "
          "threads, 1 inter-op, sequential (Node.js); torch %s: %d threads "
          "(Python); OpenBLAS: %d threads" %
          (ARGS.threads, info["ort"], ARGS.threads, info["torch"],
           ARGS.threads, ARGS.threads))
    print("load: 1-minute load average when the model started; "
          "%s, %d CPUs; load average before %s, after %s" %
          (info["cpu"], info["cpus"], info["loadavg_before"],
           info["loadavg_after"]))
    for r in results:
        for side in ("mlc", "ort", "torch", "openblas"):
            s = r.get(side)
            if s and s.get("status") not in (None, "ok"):
                print("  %s / %s: %s%s" % (r["name"], side, s["status"],
                                           ": " + s["error"]
                                           if s.get("error") else
                                           " (max abs err %.3g)" %
                                           s.get("max_abs_err", float("nan"))))


def check_setup(known, prog, args):
    """The models `args.models` names (all of `known` by default); exits with
    a message naming what to do when a name is unknown or mlc's tools or
    ONNX Runtime (unless --skip-ort) are missing. Returns (names, path of
    onnxruntime-node's package.json)."""
    names = list(known)
    if args.models:
        names = args.models.split(",")
        bad = [n for n in names if n not in known]
        if bad:
            sys.exit("%s: unknown model(s) %s; choose from %s" %
                     (prog, ", ".join(bad), ", ".join(known)))
    for tool in ("mlc-compile", "mlc-run"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            sys.exit("%s: %s not found in %s; build mlc "
                     "(scripts/build.sh) or pass --bin" % (prog, tool, args.bin))
    ort_pkg = os.path.join(HERE, "ort", "node_modules", "onnxruntime-node",
                           "package.json")
    if not args.skip_ort and not os.path.exists(ort_pkg):
        sys.exit("%s: onnxruntime-node is not installed: "
                 "(cd bench/perf/ort && npm install --ignore-scripts), "
                 "or --skip-ort" % prog)
    return names, ort_pkg


def main():
    names, ort_pkg = check_setup(make_models.MODELS, "run.py", ARGS)
    if not os.path.exists("/usr/bin/time"):
        sys.exit("run.py: /usr/bin/time missing (apt install time; "
                 "scripts/install-deps.sh --bench)")

    models = os.path.join(ARGS.out, "models")
    work = os.path.join(ARGS.out, "work")
    os.makedirs(work, exist_ok=True)
    # Snapshot the tools (and the runtime archive mlc-compile links from
    # ../lib) so that a rebuild while this runs cannot change them mid-run.
    src_bin = os.path.abspath(ARGS.bin)
    tools = os.path.join(ARGS.out, "tools")
    shutil.rmtree(tools, ignore_errors=True)
    os.makedirs(os.path.join(tools, "bin"))
    os.makedirs(os.path.join(tools, "lib"))
    for tool in ("mlc-compile", "mlc-run"):
        shutil.copy2(os.path.join(src_bin, tool), os.path.join(tools, "bin"))
    rt = os.path.join(os.path.dirname(src_bin), "lib", "libmlc_runtime.a")
    if os.path.exists(rt):
        shutil.copy2(rt, os.path.join(tools, "lib"))
    ARGS.bin = os.path.join(tools, "bin")
    import hashlib
    compiler_sha = hashlib.sha256(open(os.path.join(
        ARGS.bin, "mlc-compile"), "rb").read()).hexdigest()[:16]
    missing = [n for n in names
               if not os.path.exists(os.path.join(models, n + ".json"))]
    if missing:
        print("creating %s in %s" % (", ".join(missing), models))
        subprocess.run([sys.executable, os.path.join(HERE, "make_models.py"),
                        "--out", models] + missing, check=True)

    deadline = time.time() + ARGS.wait_idle
    while os.getloadavg()[0] >= 0.5 and time.time() < deadline:
        print("waiting for the load average (%.2f) to fall below 0.5" %
              os.getloadavg()[0], flush=True)
        time.sleep(min(15, max(1, deadline - time.time())))
    torch.set_num_threads(ARGS.threads)
    torch.set_num_interop_threads(1)
    blas = openblas_info()
    cpu = platform.processor()
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    info = {
        "cpu": cpu, "cpus": os.cpu_count(),
        "loadavg_before": "%.2f %.2f %.2f" % os.getloadavg(),
        "ort": json.load(open(ort_pkg))["version"]
        if os.path.exists(ort_pkg) else None,
        "node": subprocess.run([ARGS.node, "--version"], capture_output=True,
                               text=True).stdout.strip()
        if shutil.which(ARGS.node) else None,
        "torch": torch.__version__,
        "torch_deb": dpkg_version("python3-torch"),
        "torch_threads": torch.get_num_threads(),
        "numpy": np.__version__,
        "openblas": blas["config"], "openblas_threads": blas["threads"],
        "openblas_deb": dpkg_version("libopenblas0-pthread"),
        "numpy_blas_libraries": blas["numpy_blas_libraries"],
        "mlc_bin": src_bin, "mlc_compile_sha256_16": compiler_sha,
        "mlc_compile_mtime": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(
            os.path.getmtime(os.path.join(src_bin, "mlc-compile")))),
        "mlc_threads": ARGS.threads, "threads": ARGS.threads,
        "runs": ARGS.runs, "rounds": ARGS.rounds, "warmup": ARGS.warmup,
        "rtol": ARGS.rtol, "atol": ARGS.atol,
        "compile_flags": ARGS.compile_flags,
    }
    print("load average %s; %s, %d CPUs" % (info["loadavg_before"], cpu,
                                            info["cpus"]))
    print("threads: mlc %d (runtime pool), ORT %s intra-op %d / "
          "inter-op 1, torch %s %d (interop 1), OpenBLAS %s: %s threads" %
          (ARGS.threads, info["ort"], ARGS.threads, info["torch"],
           info["torch_threads"], blas["config"], blas["threads"]))
    if os.getloadavg()[0] >= 0.5 * info["cpus"]:
        print("warning: the machine is busy (load average %.2f on %d CPUs): "
              "other work competes with the timed runs, multi-threaded "
              "peers suffer most" % (os.getloadavg()[0], info["cpus"]))
    if not blas["config"]:
        print("warning: numpy does not use OpenBLAS (%s); install "
              "libopenblas0-pthread (scripts/install-deps.sh --bench)" %
              (", ".join(blas["numpy_blas_libraries"]) or "no BLAS mapped"))

    results = []
    for name in names:
        meta = json.load(open(os.path.join(models, name + ".json")))
        print("%s: mlc..." % name, end="", flush=True)
        r = {"name": name, "description": meta["description"],
             "batch": meta["batch"], "flops": meta["flops"],
             "load1": os.getloadavg()[0]}
        r["mlc"] = mlc_side(name, models, work)
        if not ARGS.skip_ort:
            print(" ORT...", end="", flush=True)
            r["ort"] = ort_side(name, models, work)
        if not ARGS.skip_torch:
            print(" torch...", end="", flush=True)
            r["torch"] = torch_side(name, models)
        if name in SGEMM:
            print(" OpenBLAS...", end="", flush=True)
            r["openblas"] = openblas_side(name, models)
        print(" timing...", end="", flush=True)
        time_rounds(r, [s for s in ("mlc", "ort", "torch", "openblas")
                        if s in r])
        if name in SGEMM:
            r["gflops"] = {
                side: meta["flops"] / (r[side]["median_ms"] * 1e6)
                for side in ("mlc", "ort", "torch", "openblas")
                if r.get(side) and r[side].get("median_ms")}
        r["mlc_over_ort"] = ratio(r["mlc"], r.get("ort"))
        r["mlc_over_torch"] = ratio(r["mlc"], r.get("torch"))
        print(" done")
        results.append(r)
    info["loadavg_after"] = "%.2f %.2f %.2f" % os.getloadavg()

    print_table(results, info)
    out_json = os.path.join(ARGS.out, "results.json")
    with open(out_json, "w") as f:
        json.dump({"info": info, "results": results}, f, indent=1)
    import report
    with open(os.path.join(ARGS.out, "results.md"), "w") as f:
        f.write(report.markdown({"info": info, "results": results}))
    png = os.path.join(ARGS.out, "perf.png")
    made = report.chart(results, info, png)
    print("wrote %s, results.md%s" % (out_json, " and " + png if made else ""))


if __name__ == "__main__":
    main()
