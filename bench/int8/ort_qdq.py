#!/usr/bin/python3
"""mlc's post-training int8 model against ONNX Runtime running a QDQ model
of the same network with the same scales, in the same run.

  ort_qdq.py [--models resnet18,...] [--zoo DIR] [--work /tmp/mlc-int8]

Run bench/int8/ptq.py first: it leaves, per model, the int8 model.so and
its --report (WORK/NAME/int8.so, int8.json). From the float ONNX model and
that report this script writes WORK/NAME/qdq.onnx, the QDQ form of the
same quantization (what ONNX Runtime's quantize_static writes): a
QuantizeLinear/DequantizeLinear pair with the report's uint8 scale and
zero point on the input of every quantized Conv, Gemm and MatMul, and its
weight as int8 per output channel (scale max|w| / 127, as mlc) behind a
DequantizeLinear. Then it runs both on the same inputs, prints the SQNR of
mlc's output against ONNX Runtime's and the largest difference, and times
them with mlc's fp32 model in the same rounds (ONNX Runtime through
bench/perf/ort/time_ort.js, mlc-run --bench; 1 and 2 threads, alternating).
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ORT_JS = os.path.join(ROOT, "bench", "perf", "ort", "time_ort.js")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
    return r.stdout


def write_qdq(model_path, report, out_path):
    model = onnx.load(model_path)
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    sites = {s["name"]: s for s in report["quantization"]["sites"]
             if not s["kept"]}
    producers = {o: n for n in g.node for o in n.output}

    def initializer_of(name):
        # Exporters share repeated weights through Identity nodes.
        while name not in inits and name in producers and \
                producers[name].op_type == "Identity":
            name = producers[name].input[0]
        return name

    new_nodes, found = [], set()
    for node in g.node:
        site = sites.get(node.name)
        if site is None:
            new_nodes.append(node)
            continue
        found.add(node.name)
        tag = node.name.replace("/", "_")
        s = tag + "_xs"
        z = tag + "_xz"
        g.initializer.append(numpy_helper.from_array(
            np.array(site["scale"], np.float32), s))
        g.initializer.append(numpy_helper.from_array(
            np.array(site["zero_point"], np.uint8), z))
        new_nodes.append(helper.make_node("QuantizeLinear",
                                          [node.input[0], s, z], [tag + "_q"]))
        new_nodes.append(helper.make_node("DequantizeLinear",
                                          [tag + "_q", s, z], [tag + "_dq"]))
        node.input[0] = tag + "_dq"
        w = numpy_helper.to_array(inits[initializer_of(node.input[1])])
        w = w.astype(np.float32)
        if node.op_type == "Conv":
            axis = 0
        elif node.op_type == "Gemm":
            trans_b = next((a.i for a in node.attribute if a.name == "transB"),
                           0)
            axis = 0 if trans_b else 1
        else:
            axis = 1
        other = tuple(d for d in range(w.ndim) if d != axis)
        ws = (np.abs(w).max(axis=other).astype(np.float64) / 127.0)
        ws = np.where(ws > 0, ws, 1.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        wq = np.clip(np.rint(w / ws.reshape(shape)), -128, 127).astype(np.int8)
        g.initializer.extend([
            numpy_helper.from_array(wq, tag + "_wq"),
            numpy_helper.from_array(ws, tag + "_ws"),
            numpy_helper.from_array(np.zeros(ws.shape, np.int8), tag + "_wz")])
        new_nodes.append(helper.make_node(
            "DequantizeLinear", [tag + "_wq", tag + "_ws", tag + "_wz"],
            [tag + "_wdq"], axis=axis))
        node.input[1] = tag + "_wdq"
        new_nodes.append(node)
    missing = set(sites) - found
    if missing:
        sys.exit("report sites not in the model: %s" % sorted(missing))
    del g.node[:]
    g.node.extend(new_nodes)
    onnx.checker.check_model(model)
    onnx.save(model, out_path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet18,resnet50,mobilenet_v2,"
                    "bert_enc")
    ap.add_argument("--zoo", default="/tmp/mlc-zoo")
    ap.add_argument("--work", default="/tmp/mlc-int8")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    rows = []
    for name in a.models.split(","):
        work = os.path.join(a.work, name)
        report = json.load(open(os.path.join(work, "int8.json")))
        qdq = os.path.join(work, "qdq.onnx")
        write_qdq(os.path.join(a.zoo, name + ".onnx"), report, qdq)
        spec = json.load(open(os.path.join(a.zoo, name + ".json")))
        (in_name, shape), = spec["inputs"]
        x = os.path.join(work, "x.npy")
        if not os.path.exists(x):
            np.save(x, np.random.default_rng(2).standard_normal(shape)
                    .astype(np.float32))
        so = os.path.join(work, "int8.so")
        mlc_out = os.path.join(work, "mlc_out")
        ort_out = os.path.join(work, "ort_out")
        run([os.path.join(a.bin, "mlc-run"), so, "-i", "%s=%s" % (in_name, x),
             "-o", mlc_out])
        out_name = spec["outputs"][0][0]
        got = np.load(os.path.join(mlc_out, out_name + ".npy")).astype(
            np.float64)
        f32 = os.path.join(work, "f32.so")

        def mlc_ms(model, threads):
            m = run([os.path.join(a.bin, "mlc-run"), model, "--bench",
                     str(a.runs), "--threads", str(threads), "-i",
                     "%s=%s" % (in_name, x)])
            return float(next(t.split("=")[1] for t in m.split()
                              if t.startswith("median_ms=")))

        times = {}
        for threads in (1, 2):
            best = {"mlc": [], "ort": [], "fp32": []}
            for _ in range(a.rounds):
                o = json.loads(run(["node", ORT_JS, qdq, ort_out, "--runs",
                                    str(a.runs), "--threads", str(threads),
                                    x]).strip().splitlines()[-1])
                best["ort"].append(o["median_ms"])
                best["mlc"].append(mlc_ms(so, threads))
                best["fp32"].append(mlc_ms(f32, threads))
            times[threads] = {k: min(v) for k, v in best.items()}
        ref = np.load(os.path.join(ort_out, "out0.npy")).astype(np.float64)
        sqnr = 10 * np.log10((ref ** 2).sum() / max(((got - ref) ** 2).sum(),
                                                    1e-300))
        rows.append((name, sqnr, np.abs(got - ref).max(),
                     np.abs(ref).max(), times))
        print(name, "SQNR mlc vs ORT %.1f dB, max diff %.3g (max |y| %.3g), "
              "ms 1T mlc %.2f ORT %.2f, 2T mlc %.2f ORT %.2f" % (
                  sqnr, rows[-1][2], rows[-1][3], times[1]["mlc"],
                  times[1]["ort"], times[2]["mlc"], times[2]["ort"]),
              flush=True)
    print("\n| model | SQNR mlc vs ORT | mlc fp32 1T | mlc int8 1T | ORT QDQ 1T "
          "| mlc fp32 2T | mlc int8 2T | ORT QDQ 2T |\n"
          "|---|---|---|---|---|---|---|---|")
    for name, sqnr, diff, top, t in rows:
        print("| %s | %.1f dB | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms "
              "| %.2f ms |" % (name, sqnr, t[1]["fp32"], t[1]["mlc"],
                               t[1]["ort"], t[2]["fp32"], t[2]["mlc"],
                               t[2]["ort"]))


if __name__ == "__main__":
    main()
