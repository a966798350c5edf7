//===- Profile.cpp - mlc-run --profile: the per-kernel table --------------===//
//
// Reads the kernel table and counters through the runtime's profiling API
// (mlc/runtime.h) and prints them sorted by time, with the run's wall time
// next to the kernels' sum: the difference is what runs outside kernels
// (input checks, workspace, copies between kernels, the profiler itself).
//
//===----------------------------------------------------------------------===//

#include "Profile.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

namespace mlc::run {

namespace {

struct Row {
  int32_t index;
  std::string name, ops;
  uint64_t calls, ns, flops;
  double msPerRun;
};

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

/// GFLOP/s of `flops` per call over `calls` calls taking `ns` in all.
double gflops(uint64_t flops, uint64_t calls, uint64_t ns) {
  return ns ? double(flops) * double(calls) / double(ns) : 0;
}

} // namespace

bool reportProfile(const mlc_model *model, const ProfileReport &report,
                   const std::string &jsonPath, std::string &error) {
  int32_t n = mlc_model_num_kernels(model);
  std::vector<uint64_t> ns(size_t(std::max(n, 0))), calls(ns.size());
  if (n < 0 || mlc_model_kernel_times(model, ns.data(), calls.data(), n)) {
    error = mlc_last_error();
    return false;
  }
  std::vector<Row> rows;
  double kernelMs = 0;
  uint64_t flopsPerRun = 0;
  int64_t runs = std::max<int64_t>(report.runs, 1);
  for (int32_t i = 0; i < n; ++i) {
    mlc_kernel_info info;
    if (mlc_model_kernel_info(model, i, &info) != MLC_OK) {
      error = mlc_last_error();
      return false;
    }
    if (report.entry != info.entry)
      continue;
    Row row{i,
            info.name,
            info.ops,
            calls[i],
            ns[i],
            info.flops,
            double(ns[i]) / 1e6 / double(runs)};
    kernelMs += row.msPerRun;
    flopsPerRun += info.flops;
    rows.push_back(std::move(row));
  }
  // Slowest first; ties in table order.
  std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
    return a.msPerRun > b.msPerRun;
  });

  double wall = report.wallMsPerRun;
  auto percent = [&](double ms) { return wall > 0 ? 100 * ms / wall : 0; };
  size_t nameWidth = 6, opsWidth = 3;
  for (const Row &r : rows) {
    nameWidth = std::max(nameWidth, r.name.size());
    opsWidth = std::max(opsWidth, r.ops.size());
  }
  printf("profile: %s, %" PRId64 " %s, %d thread%s\n", report.model.c_str(),
         report.runs, report.entry == "run" ? "runs" : "train steps",
         int(report.threads), report.threads == 1 ? "" : "s");
  printf("%5s  %-*s  %-*s  %6s  %9s  %6s  %10s  %8s\n", "#", int(nameWidth),
         "kernel", int(opsWidth), "ops", "calls", "ms/run", "%run", "GFLOP",
         "GFLOP/s");
  for (const Row &r : rows) {
    char rate[32] = "-";
    if (r.flops && r.ns)
      snprintf(rate, sizeof(rate), "%.1f", gflops(r.flops, r.calls, r.ns));
    printf("%5d  %-*s  %-*s  %6" PRIu64 "  %9.4f  %5.1f%%  %10.6f  %8s\n",
           int(r.index), int(nameWidth), r.name.c_str(), int(opsWidth),
           r.ops.c_str(), r.calls, r.msPerRun, percent(r.msPerRun),
           double(r.flops) / 1e9, rate);
  }
  double outside = wall - kernelMs;
  printf("kernels: %zu, %.4f ms/run (%.1f%% of the run); wall: %.4f ms/run; "
         "outside kernels: %.4f ms/run (%.1f%%)\n",
         rows.size(), kernelMs, percent(kernelMs), wall, outside,
         percent(outside));
  printf("total: %.6f GFLOP/run, %.1f GFLOP/s (wall), %.1f GFLOP/s (in "
         "kernels)\n",
         double(flopsPerRun) / 1e9, wall > 0 ? flopsPerRun / (wall * 1e6) : 0,
         kernelMs > 0 ? flopsPerRun / (kernelMs * 1e6) : 0);

  if (jsonPath.empty())
    return true;
  std::string tmp = jsonPath + ".tmp";
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f) {
    error = "cannot write '" + tmp + "': " + strerror(errno);
    return false;
  }
  fprintf(f,
          "{\n  \"model\": %s,\n  \"entry\": %s,\n  \"runs\": %" PRId64
          ",\n  \"threads\": %d,\n  \"wall_ms_per_run\": %.6f,\n"
          "  \"kernel_ms_per_run\": %.6f,\n  \"outside_ms_per_run\": %.6f,\n"
          "  \"flops_per_run\": %" PRIu64 ",\n  \"gflops_wall\": %.3f,\n"
          "  \"kernels\": [",
          jsonString(report.model).c_str(), jsonString(report.entry).c_str(),
          report.runs, int(report.threads), wall, kernelMs, outside,
          flopsPerRun, wall > 0 ? flopsPerRun / (wall * 1e6) : 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    fprintf(f,
            "%s\n    {\"index\": %d, \"name\": %s, \"ops\": %s, \"calls\": "
            "%" PRIu64 ", \"total_ns\": %" PRIu64 ", \"ms_per_run\": %.6f, "
            "\"percent_of_run\": %.3f, \"flops\": %" PRIu64
            ", \"gflops\": %.3f}",
            i ? "," : "", int(r.index), jsonString(r.name).c_str(),
            jsonString(r.ops).c_str(), r.calls, r.ns, r.msPerRun,
            percent(r.msPerRun), r.flops, gflops(r.flops, r.calls, r.ns));
  }
  fprintf(f, "\n  ]\n}\n");
  bool ok = !ferror(f);
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp.c_str(), jsonPath.c_str()) != 0) {
    error = "cannot write '" + jsonPath + "': " + strerror(errno);
    remove(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace mlc::run
