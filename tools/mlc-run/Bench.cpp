//===- Bench.cpp - running a model, once or timed, from threads -----------===//

#include "Bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <thread>

namespace mlc::run {

static void runWorker(const mlc_model *model,
                      const std::vector<mlc_tensor> &inputs,
                      const std::vector<Slot> &outputSlots, Worker &worker,
                      int64_t warmup, int64_t runs, std::atomic<int64_t> &ready,
                      int64_t numThreads, mlc_model *profiled) {
  std::vector<mlc_tensor> outputs;
  for (size_t i = 0; i < outputSlots.size(); ++i)
    outputs.push_back(makeTensor(outputSlots[i], worker.outputs[i].data()));
  // Start together so the runs really overlap.
  ready.fetch_add(1);
  while (ready.load() < numThreads)
    std::this_thread::yield();
  for (int64_t r = 0; r < warmup + runs; ++r) {
    // --profile: the timed runs only.
    if (profiled && r == warmup &&
        mlc_model_set_profiling(profiled, 1) != MLC_OK) {
      worker.error = mlc_last_error();
      return;
    }
    auto start = std::chrono::steady_clock::now();
    mlc_status status =
        mlc_model_run(model, inputs.data(), int32_t(inputs.size()),
                      outputs.data(), int32_t(outputs.size()));
    auto end = std::chrono::steady_clock::now();
    if (status != MLC_OK) {
      worker.error = mlc_last_error();
      return;
    }
    if (r >= warmup)
      worker.timesMs.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
  }
}

std::vector<Worker> runModel(const mlc_model *model, mlc_model *profiled,
                             const std::vector<mlc_tensor> &inputs,
                             const std::vector<Slot> &outputSlots,
                             int64_t warmup, int64_t runs, int64_t concurrent) {
  std::vector<Worker> workers(static_cast<size_t>(concurrent));
  for (Worker &w : workers)
    for (const Slot &s : outputSlots)
      w.outputs.emplace_back(s.sizeBytes);
  std::atomic<int64_t> ready{0};
  if (concurrent == 1) {
    runWorker(model, inputs, outputSlots, workers[0], warmup, runs, ready, 1,
              profiled);
  } else {
    std::vector<std::thread> threads;
    for (Worker &w : workers)
      threads.emplace_back(runWorker, model, std::cref(inputs),
                           std::cref(outputSlots), std::ref(w), warmup, runs,
                           std::ref(ready), concurrent, nullptr);
    for (std::thread &t : threads)
      t.join();
  }
  for (size_t t = 0; t < workers.size(); ++t)
    if (!workers[t].error.empty())
      fatal(concurrent > 1 ? "run failed in thread " + std::to_string(t) +
                                 ": " + workers[t].error
                           : "run failed: " + workers[t].error);
  // Concurrent runs must not interfere: every thread computes the same bits.
  for (size_t t = 1; t < workers.size(); ++t)
    for (size_t o = 0; o < outputSlots.size(); ++o)
      if (memcmp(workers[t].outputs[o].data(), workers[0].outputs[o].data(),
                 outputSlots[o].sizeBytes) != 0)
        fatal("output '" + outputSlots[o].name + "' of thread " +
              std::to_string(t) +
              " differs from thread 0: the model is not deterministic or "
              "not thread-safe");
  return workers;
}

void reportBench(mlc_model *model, const Options &opts,
                 const std::vector<Worker> &workers, int64_t warmup) {
  std::vector<double> times;
  for (const Worker &w : workers)
    times.insert(times.end(), w.timesMs.begin(), w.timesMs.end());
  if (opts.benchTimes) {
    printf("times_ms=");
    for (size_t i = 0; i < times.size(); ++i)
      printf("%s%.6f", i ? "," : "", times[i]);
    printf("\n");
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  printf("runs=%zu concurrent=%" PRId64 " threads=%d warmup=%" PRId64 "\n", n,
         opts.concurrent, int(mlc_model_num_threads(model)), warmup);
  printf("median_ms=%.6f min_ms=%.6f\n", median, times.front());
  if (opts.profile) {
    mlc_model_set_profiling(model, 0);
    double sum = 0;
    for (double t : times)
      sum += t;
    printProfile(model, opts.modelPath, opts.profileJson, "run", int64_t(n),
                 sum / double(n));
  }
}

} // namespace mlc::run
