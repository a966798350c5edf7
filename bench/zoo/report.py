#!/usr/bin/python3
"""Tables and chart of a bench/zoo/run.py results.json (for the docs).

  report.py [build/bench-zoo/results.json] [--png zoo.png]

Prints the Markdown of OUT/results.md (run.py writes the same); --png redraws
the chart OUT/zoo.png. One column group per thread count of the run; the
geometric means of mlc/ORT and mlc/torch are taken over the rows whose mlc
output matched the reference, the CNNs (every family but `transformer`) and
the transformers apart. Cells and ratios are formatted by bench/perf/report.py.
"""

import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "perf"))
import report as perf_report  # noqa: E402  (bench/perf/report.py)

SIDES = ("mlc", "ort", "torch")
HEAD = ["model", "family", "batch", "GFLOP", "compile s", "correct?"]
GROUP = ["mlc ms", "ORT ms", "torch ms", "mlc/ORT", "mlc/torch", "load"]
COLORS = {"plain": "#1f77b4", "grouped": "#9467bd", "depthwise": "#2ca02c",
          "concat": "#ff7f0e", "modern": "#8c564b", "segmentation": "#e377c2",
          "transformer": "#7f7f7f"}


def label(r, info):
    """The model's name, with @opset when the run had several opsets."""
    return r["name"] + ("@%d" % r["opset"] if len(info["opsets"]) > 1
                        else "")


def geomeans(results, t, transformers):
    """{ratio key: (geometric mean or None, rows)} over the rows of the CNNs
    (or of the transformers) whose mlc output matched, at `t` threads."""
    out = {}
    for key in ("mlc_over_ort", "mlc_over_torch"):
        xs = [r["threads"][str(t)][key] for r in results
              if (r["family"] == "transformer") == transformers and
              r["mlc"]["status"] == "ok" and str(t) in r.get("threads", {})
              and r["threads"][str(t)].get(key)]
        out[key] = (math.exp(sum(map(math.log, xs)) / len(xs))
                    if xs else None, len(xs))
    return out


def summary_lines(data):
    lines = []
    results = data["results"]
    for t in data["info"]["threads"]:
        for tr, what in ((False, "CNNs"), (True, "transformers")):
            n = sum((r["family"] == "transformer") == tr for r in results)
            if not n:
                continue
            g = geomeans(results, t, tr)
            lines.append(
                "geomean over the %s (%d of %d correct), %d thread%s: "
                "mlc/ORT %s, mlc/torch %s" % (
                    what, g["mlc_over_ort"][1], n, t, "s" * (t > 1),
                    perf_report.fmt_ratio(g["mlc_over_ort"][0]),
                    perf_report.fmt_ratio(g["mlc_over_torch"][0])))
    return lines


def short(error, width=200):
    """An error (bench/perf/run.py's tail(): the last lines joined by
    ' | ') with each line cut to `width` characters; the json keeps it all."""
    return " | ".join(p if len(p) <= width else p[:width - 3] + "..."
                      for p in error.split(" | "))


def failure_lines(data):
    """One line per side that failed or did not match, and per timing that
    failed at one thread count."""
    lines = []
    for r in data["results"]:
        name = label(r, data["info"])
        for side in SIDES:
            s = r.get(side)
            if s and s.get("status") not in (None, "ok"):
                lines.append("%s / %s: %s%s" % (
                    name, side, s["status"], ": " + short(s["error"])
                    if s.get("error") else " (max abs err %.3g, atol %.3g)"
                    % (s.get("max_abs_err") or float("nan"), r["atol"])))
            for t, rt in sorted(r.get("threads", {}).items()):
                if rt.get(side, {}).get("error"):
                    lines.append("%s / %s, %s threads: %s" % (
                        name, side, t, short(rt[side]["error"])))
    return lines


def correct(m, text):
    """bench/perf/report.py's correctness cell, without Markdown in text."""
    if m["status"] in ("ok", "wrong") and m.get("max_abs_err") is None:
        cell = m["status"]
    else:
        cell = perf_report._correct(m)
    return cell.replace("**", "") if text else cell


def rows(data, text):
    """Per result: the common cells, then per thread count mlc, ORT, torch
    (ms; ! or (wrong): output did not match), mlc/ORT, mlc/torch and the
    1-minute load average when that timing began."""
    missing = "-" if text else "–"
    for r in data["results"]:
        m = r["mlc"]
        cells = [label(r, data["info"]), r["family"], str(r["batch"]),
                 "%.2f" % (r["flops"] / 1e9),
                 "%.1f" % m["compile_s"] if "compile_s" in m else missing,
                 correct(m, text)]
        for t in data["info"]["threads"]:
            rt = r.get("threads", {}).get(str(t), {})
            cells += [perf_report.fmt_ms(rt.get(s), wrong="!" if text else
                                         " (wrong)", missing=missing)
                      for s in SIDES]
            cells += [perf_report.fmt_ratio(rt.get(k), missing=missing)
                      for k in ("mlc_over_ort", "mlc_over_torch")]
            cells.append("%.1f" % rt["load1"] if "load1" in rt else missing)
        yield cells


def cpu_label(info):
    """The model name, with family and model where the results have them
    (bench/zoo/machine.py): "AMD EPYC" alone names Zen 3 to 5."""
    if "family_model" not in info:
        return info["cpu"]
    return "%s %s" % (info["cpu"], info["family_model"])


def footer(info):
    return ("median of %d runs in %d interleaved rounds (each after %d "
            "warm-up runs) per thread count; ratios above 1: mlc is slower. "
            "mlc: mlc-run --threads T; ORT %s (onnxruntime-node, Node.js "
            "%s): T intra-op threads, inter-op 1; torch %s: T threads. "
            "%s (%s), %d CPUs; load average %s before, %s after" % (
                info["runs"], info["rounds"], info["warmup"], info["ort"],
                info["node"], info["torch"], cpu_label(info),
                " ".join(info["isa"]), info["cpus"], info["loadavg_before"],
                info.get("loadavg_after", "?")))


def text_table(data):
    """The table run.py prints: fixed-width columns, a header per thread
    count, the geomeans, the settings and the failures."""
    threads = data["info"]["threads"]
    head = HEAD + GROUP * len(threads)
    body = list(rows(data, True))
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    out = [" " * (sum(widths[:len(HEAD)]) + 2 * len(HEAD)) + "".join(
        ("--- %d thread%s " % (t, "s" * (t > 1))).ljust(
            sum(widths[k:k + len(GROUP)]) + 2 * len(GROUP) - 2, "-") + "  "
        for t, k in zip(threads, range(len(HEAD), len(widths), len(GROUP))))]
    for cells in [head] + body:
        out.append("  ".join(c.rjust(w) if i >= 2 else c.ljust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))))
    out += [""] + summary_lines(data) + [footer(data["info"])]
    out += ["  " + line for line in failure_lines(data)]
    return "\n".join(out) + "\n"


def markdown(data):
    head = HEAD + ["%s (%d thr)" % (g, t) for t in data["info"]["threads"]
                   for g in GROUP]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i in (0, 1, 5) else "---:"
                          for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(cells) + " |" for cells in rows(data, False)]
    out += [""] + ["- " + line for line in summary_lines(data)]
    text = footer(data["info"])
    out += ["", text[0].upper() + text[1:] + "."]
    fails = failure_lines(data)
    if fails:
        out += [""] + ["- " + line.replace("|", "\\|") for line in fails]
    return "\n".join(out) + "\n"


def chart(data, path):
    """mlc/ORT (bars from 1, colored by family) and mlc/torch (dots) per
    model, one panel per thread count, log scale centred on 1 and wide enough
    for every mlc/ORT; dashed red: the CNN geomean of mlc/ORT."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib (scripts/install-deps.sh --bench); no chart")
        return False
    info, results = data["info"], data["results"]
    threads = info["threads"]
    fig, axes = plt.subplots(1, len(threads), sharey=True, squeeze=False,
                             figsize=(4.6 * len(threads) + 1.8,
                                      0.3 * len(results) + 1.6))
    # The axis spans the mlc/ORT ratios; a mlc/torch dot beyond it sits at
    # the edge as a triangle.
    span = max([2.2] + [max(v, 1 / v) * 1.2 for r in results
                        for rt in r.get("threads", {}).values()
                        for v in [rt.get("mlc_over_ort")] if v])
    for ax, t in zip(axes[0], threads):
        for y, r in enumerate(results):
            rt = r.get("threads", {}).get(str(t), {})
            if rt.get("mlc_over_ort"):
                ax.barh(y, rt["mlc_over_ort"] - 1, left=1, height=0.7,
                        color=COLORS[r["family"]])
            v = rt.get("mlc_over_torch")
            if v:
                ax.plot(min(max(v, 1 / span * 1.05), span / 1.05), y,
                        "k." if 1 / span < v < span else
                        "k<" if v < 1 else "k>", markersize=5)
        g = geomeans(results, t, False)["mlc_over_ort"][0]
        if g:
            ax.axvline(g, color="r", ls="--", lw=1)
        ax.axvline(1, color="k", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlim(1 / span, span)
        ticks = [2.0 ** k for k in range(-6, 7)
                 if 1 / span <= 2.0 ** k <= span]
        ax.set_xticks(ticks)
        ax.set_xticklabels(["%g" % x for x in ticks])
        ax.minorticks_off()
        ax.set_title("%d thread%s: geomean mlc/ORT over the CNNs %s" % (
            t, "s" * (t > 1), perf_report.fmt_ratio(g)), fontsize=9)
        ax.set_xlabel("mlc / ORT (bars), mlc / torch (dots, triangles: "
                      "off the axis); below 1: mlc is faster", fontsize=8)
        ax.grid(axis="x", which="both", alpha=0.3)
    axes[0][0].set_yticks(range(len(results)))
    axes[0][0].set_yticklabels([label(r, info) for r in results], fontsize=8)
    axes[0][0].set_ylim(len(results) - 0.5, -0.5)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLORS.values()]
    fig.legend(handles, list(COLORS), loc="lower center", ncol=len(COLORS),
               fontsize=7, frameon=False)
    fig.suptitle("mlc vs ONNX Runtime %s and PyTorch %s: %s, %d CPUs, median "
                 "of %d runs" % (info["ort"], info["torch"], cpu_label(info),
                                 info["cpus"], info["runs"]), fontsize=9)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main():
    import argparse
    import json
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="?", default=os.path.join(
        ROOT, "build", "bench-zoo", "results.json"))
    ap.add_argument("--png", help="also redraw the chart into this file")
    args = ap.parse_args()
    data = json.load(open(args.results))
    sys.stdout.write(markdown(data))
    if args.png:
        chart(data, args.png)


if __name__ == "__main__":
    main()
