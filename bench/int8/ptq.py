#!/usr/bin/python3
"""Post-training int8 quantization of zoo networks: accuracy (SQNR against
the float model) and speed (int8 against fp32, interleaved), on this CPU.

  ptq.py [--models resnet18,resnet50,mobilenet_v2,bert_enc] [--zoo DIR]
         [--calib 32] [--eval 8] [--runs 20] [--out build/bench/int8]
         [--cpu NAME] [--integer-kernels true|false] [--weight-bits 7|8]

--cpu compiles both models for another CPU than this one (x86-64-v3 or
haswell: AVX2 code, run here too); --integer-kernels overrides mlc-compile's
default (integer kernels where the target has AVX-512 VNNI); --weight-bits 7
quantizes the weights to [-63, 63] (vpmaddubsw without VNNI).

The networks come from bench/zoo/make_models.py (random seeded weights,
BatchNorm statistics randomized; made if missing). Calibration and
evaluation inputs are standard-normal like the zoo's inputs, drawn from
separate seeds. Each model is compiled as fp32 and with --quantize=int8
--calibration (default options: the first convolution and the last matmul
stay in float); SQNR = 10 log10(sum ref^2 / sum (int8 - ref)^2) over the
outputs of the evaluation inputs. Times: mlc-run --bench, 1 and 2 threads,
fp32 and int8 alternating, the median of each side's best round.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cpu_name():
    """The CPU's model name, its vector ISA and whether it has VNNI."""
    name, flags = platform.processor(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and not flags:
                    name = value.strip()
                elif key.strip() == "flags":
                    flags = set(value.split())
                    break
    except OSError:
        pass
    isa = ("AVX-512" if "avx512f" in flags else
           "AVX2" if "avx2" in flags else "SSE")
    vnni = "VNNI" if flags & {"avx512_vnni", "avx_vnni"} else "no VNNI"
    return "%s (%s, %s)" % (name, isa, vnni)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r.stdout


def bench(bin_dir, so, inputs, runs, threads):
    out = run([os.path.join(bin_dir, "mlc-run"), so, "--bench", str(runs),
               "--threads", str(threads)] + inputs)
    for tok in out.split():
        if tok.startswith("median_ms="):
            return float(tok.split("=")[1])
    sys.exit("no median in mlc-run output:\n" + out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet18,resnet50,mobilenet_v2,"
                    "bert_enc")
    ap.add_argument("--zoo", default="/tmp/mlc-zoo")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--calib", type=int, default=32)
    ap.add_argument("--eval", type=int, default=8)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--work", default="/tmp/mlc-int8")
    ap.add_argument("--cpu", default=None)
    ap.add_argument("--integer-kernels", default=None,
                    choices=["true", "false"])
    ap.add_argument("--weight-bits", type=int, default=8, choices=[7, 8])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench",
                                                  "int8"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "runtime", "python"))
    import mlc

    results = {"cpu": cpu_name(), "date": time.strftime("%Y-%m-%d"),
               "target_cpu": a.cpu or "native",
               "integer_kernels": a.integer_kernels or "default",
               "weight_bits": a.weight_bits,
               "models": {}}
    for name in a.models.split(","):
        onnx_path = os.path.join(a.zoo, name + ".onnx")
        if not os.path.exists(onnx_path):
            run([sys.executable, os.path.join(ROOT, "bench", "zoo",
                                              "make_models.py"),
                 "--out", a.zoo, name])
        spec = json.load(open(os.path.join(a.zoo, name + ".json")))
        (in_name, shape), = spec["inputs"]
        work = os.path.join(a.work, name)
        calib = os.path.join(work, "calib")
        os.makedirs(calib, exist_ok=True)
        rng = np.random.default_rng(1)
        for i in range(a.calib):
            np.save(os.path.join(calib, "s%02d.npy" % i),
                    rng.standard_normal(shape).astype(np.float32))
        f32 = os.path.join(work, "f32.so")
        q8 = os.path.join(work, "int8.so")
        t0 = time.time()
        flags = ["--cpu=" + a.cpu] if a.cpu else []
        run([os.path.join(a.bin, "mlc-compile"), onnx_path, "-o", f32] + flags)
        t1 = time.time()
        if a.integer_kernels:
            flags.append("--integer-kernels=" + a.integer_kernels)
        flags.append("--quantize-weight-bits=%d" % a.weight_bits)
        run([os.path.join(a.bin, "mlc-compile"), onnx_path, "-o", q8,
             "--quantize=int8", "--calibration", calib, "--report",
             os.path.join(work, "int8.json")] + flags)
        t2 = time.time()
        report = json.load(open(os.path.join(work, "int8.json")))
        sites = report["quantization"]["sites"]
        erng = np.random.default_rng(2)
        num = den = 0.0
        with mlc.load(f32) as mf, mlc.load(q8) as mq:
            for _ in range(a.eval):
                x = erng.standard_normal(shape).astype(np.float32)
                ref, got = mf(x), mq(x)
                ref = ref[0] if isinstance(ref, (list, tuple)) else ref
                got = got[0] if isinstance(got, (list, tuple)) else got
                num += float((ref.astype(np.float64) ** 2).sum())
                den += float(((got.astype(np.float64) - ref) ** 2).sum())
        sqnr = 10 * np.log10(num / den) if den > 0 else float("inf")
        x0 = os.path.join(work, "x.npy")
        np.save(x0, erng.standard_normal(shape).astype(np.float32))
        inputs = ["-i", "%s=%s" % (in_name, x0)]
        times = {}
        for threads in (1, 2):
            best = {"fp32": [], "int8": []}
            for _ in range(a.rounds):
                best["fp32"].append(bench(a.bin, f32, inputs, a.runs, threads))
                best["int8"].append(bench(a.bin, q8, inputs, a.runs, threads))
            times[threads] = {k: min(v) for k, v in best.items()}
        results["models"][name] = {
            "sqnr_db": round(sqnr, 2),
            "sites": len(sites),
            "quantized": sum(1 for s in sites if not s["kept"]),
            "compile_s": {"fp32": round(t1 - t0, 2),
                          "int8": round(t2 - t1, 2)},
            "ms": times,
        }
        print(name, json.dumps(results["models"][name]), flush=True)
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out + ".json", "w") as f:
        json.dump(results, f, indent=1)
    with open(a.out + ".md", "w") as f:
        f.write("CPU: %s, %s; code for %s, integer kernels %s, %d-bit "
                "weights\n\n" % (
                    results["cpu"], results["date"], results["target_cpu"],
                    results["integer_kernels"], results["weight_bits"]))
        f.write("| model | quantized / sites | SQNR dB | fp32 ms 1T | int8 ms 1T "
                "| speedup 1T | fp32 ms 2T | int8 ms 2T | speedup 2T "
                "| compile s fp32 / int8 |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n")
        for name, r in results["models"].items():
            t = r["ms"]
            f.write("| %s | %d / %d | %.1f | %.2f | %.2f | %.2fx | %.2f | %.2f "
                    "| %.2fx | %.1f / %.1f |\n" % (
                        name, r["quantized"], r["sites"], r["sqnr_db"],
                        t[1]["fp32"], t[1]["int8"], t[1]["fp32"] / t[1]["int8"],
                        t[2]["fp32"], t[2]["int8"], t[2]["fp32"] / t[2]["int8"],
                        r["compile_s"]["fp32"], r["compile_s"]["int8"]))
    print(open(a.out + ".md").read())


if __name__ == "__main__":
    main()
