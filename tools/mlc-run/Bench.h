//===- Bench.h - running a model, once or timed, from threads ---*- C++ -*-===//
#ifndef MLC_TOOLS_MLC_RUN_BENCH_H
#define MLC_TOOLS_MLC_RUN_BENCH_H

#include "Common.h"
#include "Options.h"

namespace mlc::run {

/// One application thread's outputs and timed runs.
struct Worker {
  std::vector<Buffer> outputs;
  std::vector<double> timesMs;
  std::string error;
};

/// Runs the model `warmup` + `runs` times from `concurrent` threads at once,
/// each into its own outputs, timing the last `runs`. With `profiled` (one
/// thread only), profiling is switched on for the timed runs. Exits on a
/// failed run or when the threads' outputs differ in any bit.
std::vector<Worker> runModel(const mlc_model *model, mlc_model *profiled,
                             const std::vector<mlc_tensor> &inputs,
                             const std::vector<Slot> &outputSlots,
                             int64_t warmup, int64_t runs, int64_t concurrent);

/// Prints --bench's figures over all workers' timed runs (and --bench-times'
/// list, and the --profile table).
void reportBench(mlc_model *model, const Options &opts,
                 const std::vector<Worker> &workers, int64_t warmup);

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_BENCH_H
