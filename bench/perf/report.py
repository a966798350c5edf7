#!/usr/bin/python3
"""Markdown tables from a bench/perf/run.py results.json (for the docs).

  report.py [build/bench/results.json] [--png PERF.png]

run.py writes the same text to OUT/results.md and the chart to OUT/perf.png;
--png redraws the chart from a results.json.
"""

import json
import os
import sys

SGEMM = ("sgemm_256", "sgemm_512", "sgemm_1024")


def fmt_ms(side, wrong=" (wrong)", missing="–"):
    """A median in ms with 3-4 significant digits; `wrong` marks a side
    whose outputs did not match."""
    if not side or side.get("median_ms") is None:
        return missing
    v = side["median_ms"]
    s = "%.4f" % v if v < 0.1 else "%.3f" % v if v < 10 else "%.1f" % v
    return s + (wrong if side.get("status") != "ok" else "")


def fmt_ratio(x, missing="–"):
    if x is None:
        return missing
    return "%.1f" % x if x >= 10 else "%.2f" % x if x >= 0.1 else "%.3f" % x


def _correct(m):
    if m["status"] == "ok":
        return "yes (%.1e)" % m["max_abs_err"]
    if m["status"] == "wrong":
        return "**no** (max err %.2g)" % m["max_abs_err"]
    return "**%s**" % m["status"]


def chart(results, info, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib (scripts/install-deps.sh --bench); "
              "no chart")
        return False
    nets = [r for r in results if r["name"] not in SGEMM]
    gemms = [r for r in results if r["name"] in SGEMM]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2),
                             gridspec_kw={"width_ratios": [2.2, 1]})
    colors = {"mlc": "#d62728", "ort": "#1f77b4", "torch": "#ff7f0e",
              "openblas": "#2ca02c"}
    labels = {"mlc": "mlc (%d thr)" % info.get("mlc_threads", info["threads"]),
              "ort": "ONNX Runtime %s (%d thr)" % (info["ort"], info["threads"]),
              "torch": "PyTorch %s (%d thr)" % (info["torch"], info["threads"]),
              "openblas": "OpenBLAS (%d thr)" % info["threads"]}
    ax = axes[0]
    sides = ["mlc", "ort", "torch"]
    w = 0.27
    for k, side in enumerate(sides):
        xs, ys = [], []
        for i, r in enumerate(nets):
            s = r.get(side)
            if s and s.get("median_ms"):
                xs.append(i + (k - 1) * w)
                ys.append(s["median_ms"])
        ax.bar(xs, ys, w, color=colors[side], label=labels[side])
    ax.set_yscale("log")
    times = [r[s]["median_ms"] for r in nets for s in sides
             if r.get(s) and r[s].get("median_ms")]
    if times:  # a --models subset may have no network rows
        ax.set_ylim(top=max(times) * 30)
    ax.set_xticks(range(len(nets)))
    ax.set_xticklabels(["%s\nb%s" % (r["name"].replace("_b", " ")
                                      .split()[0], r["batch"]) for r in nets],
                       fontsize=8)
    ax.set_ylabel("median latency, ms (log; lower is better)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax = axes[1]
    sides = ["mlc", "openblas", "torch", "ort"]
    w = 0.2
    for k, side in enumerate(sides):
        xs, ys = [], []
        for i, r in enumerate(gemms):
            v = r["gflops"].get(side)
            if v:
                xs.append(i + (k - 1.5) * w)
                ys.append(v)
        ax.bar(xs, ys, w, color=colors[side], label=labels[side])
    ax.set_xticks(range(len(gemms)))
    ax.set_xticklabels([r["name"].split("_")[1] for r in gemms])
    ax.set_xlabel("SGEMM N (N x N x N)")
    ax.set_ylabel("GFLOP/s (higher is better)")
    ax.set_yscale("log")
    rates = [v for r in gemms for v in r["gflops"].values() if v]
    if rates:  # a --models subset may have no SGEMM rows
        ax.set_ylim(top=max(rates) * 30)
    ax.legend(fontsize=7)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.suptitle("mlc vs ONNX Runtime, PyTorch, OpenBLAS: %s, %d CPUs, "
                 "median of %d runs" % (info["cpu"], info["cpus"], info["runs"]),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def markdown(data):
    info, results = data["info"], data["results"]
    out = ["| model | batch | mlc ms | ORT ms | torch ms | mlc/ORT | mlc/torch "
           "| compile s | compile MiB | load | correct? (max abs err) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        m = r["mlc"]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %s |"
                   % (r["name"], r["batch"], fmt_ms(m), fmt_ms(r.get("ort")),
                      fmt_ms(r.get("torch")), fmt_ratio(r.get("mlc_over_ort")),
                      fmt_ratio(r.get("mlc_over_torch")),
                      "%.2f" % m["compile_s"] if "compile_s" in m else "–",
                      "%.0f" % m["compile_rss_mib"]
                      if "compile_rss_mib" in m else "–",
                      r["load1"], _correct(m)))
    gemms = [r for r in results if r["name"] in SGEMM]
    if gemms:
        out += ["", "| SGEMM N | mlc GFLOP/s | OpenBLAS GFLOP/s | ORT GFLOP/s "
                "| torch GFLOP/s | mlc/OpenBLAS |",
                "|---:|---:|---:|---:|---:|---:|"]
        for r in gemms:
            g = r["gflops"]
            f = lambda k: "%.2f" % g[k] if g.get(k) else "–"  # noqa: E731
            out.append("| %s | %s | %s | %s | %s | %s |" % (
                r["name"].split("_")[1], f("mlc"), f("openblas"), f("ort"),
                f("torch"), "%.4f" % (g["mlc"] / g["openblas"])
                if g.get("mlc") and g.get("openblas") else "–"))
    out += ["", "Median of %d runs%s after %d warm-up runs. mlc: %d threads "
            "(runtime pool); ONNX Runtime %s (onnxruntime-node, Node.js %s): intra-op %d, "
            "inter-op 1, sequential; PyTorch %s (Debian %s): %d threads; "
            "%s (Debian %s): %d threads. %s, %d CPUs; load average %s before, "
            "%s after." % (
                info["runs"],
                " in %d rounds, the sides taking turns, each round" %
                info["rounds"] if info.get("rounds", 1) > 1 else "",
                info["warmup"], info.get("mlc_threads", 1), info["ort"], info["node"],
                info["threads"], info["torch"], info["torch_deb"],
                info["threads"], info["openblas"], info["openblas_deb"],
                info["openblas_threads"] or info["threads"], info["cpu"],
                info["cpus"], info["loadavg_before"], info["loadavg_after"])]
    failures = []
    for r in results:
        for side in ("mlc", "ort", "torch", "openblas"):
            s = r.get(side)
            if s and s.get("status") not in (None, "ok"):
                failures.append("- %s / %s: %s%s" % (
                    r["name"], side, s["status"],
                    ": " + s["error"] if s.get("error") else ""))
    if failures:
        out += [""] + failures
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    png = None
    if "--png" in args:
        i = args.index("--png")
        png = args[i + 1]
        del args[i:i + 2]
    path = args[0] if args else os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "build", "bench", "results.json")
    data = json.load(open(path))
    sys.stdout.write(markdown(data))
    if png:
        chart(data["results"], data["info"], png)


if __name__ == "__main__":
    main()
