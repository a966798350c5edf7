//===- Profile.h - mlc-run --profile: the per-kernel table ------*- C++ -*-===//
#ifndef MLC_TOOLS_MLC_RUN_PROFILE_H
#define MLC_TOOLS_MLC_RUN_PROFILE_H

#include "mlc/runtime.h"

#include <cstdint>
#include <string>

namespace mlc::run {

/// Kernel figures of a model's profiled runs, read once after the runs.
struct ProfileReport {
  std::string model;
  std::string entry = "run"; // the kernels shown: "run" or "train"
  int64_t runs = 0;          // profiled calls of that entry
  int32_t threads = 0;
  double wallMsPerRun = 0; // mean wall time of one call, as mlc-run saw it
};

/// Prints the table of `entry`'s kernels, sorted by time, and the totals to
/// stdout; with a non-empty `jsonPath` also writes them there as JSON.
/// Returns false with `error` set when the file cannot be written or the
/// runtime fails.
bool reportProfile(const mlc_model *model, const ProfileReport &report,
                   const std::string &jsonPath, std::string &error);

} // namespace mlc::run

#endif
