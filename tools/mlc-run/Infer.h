//===- Infer.h - mlc-run without --train: one checked run -------*- C++ -*-===//
#ifndef MLC_TOOLS_MLC_RUN_INFER_H
#define MLC_TOOLS_MLC_RUN_INFER_H

#include "Common.h"
#include "Options.h"

namespace mlc::run {

/// Runs `model` (opened, weights loaded, profiling checked) on -i's files or
/// random inputs per `opts`, then prints, saves (-o), compares (--expect)
/// and/or reports the timings (--bench) of its outputs, --save-weights, and
/// closes the model. Returns the exit status: 1 when an output mismatched;
/// exits on any other error.
int runInference(const Options &opts, mlc_model *model,
                 const std::vector<Slot> &inputSlots,
                 const std::vector<Slot> &outputSlots);

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_INFER_H
