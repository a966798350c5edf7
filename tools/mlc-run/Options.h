//===- Options.h - mlc-run's command line, parsed ---------------*- C++ -*-===//
//
// Parsed (and checked) in mlc-run.cpp; the benchmark and training parts read
// what they need from it.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TOOLS_MLC_RUN_OPTIONS_H
#define MLC_TOOLS_MLC_RUN_OPTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlc::run {

struct Options {
  std::string modelPath;
  std::vector<std::string> inputs;
  std::vector<std::string> expects;
  std::string outputDir;
  bool print = false;
  bool info = false;
  int64_t bench = 0;
  bool benchTimes = false;
  int64_t warmup = 3;
  int64_t concurrent = 1; // application threads running the model
  int64_t threads = 0;    // intra-op threads; 0: the runtime's default
  bool profile = false;
  std::string profileJson;
  uint64_t seed = 0;
  double rtol = 1e-4;
  double atol = 1e-5;
  // Training.
  std::string trainX, trainY, evalX, evalY, loadWeights, saveWeights;
  int64_t epochs = 0, batch = 0; // 0: not given
};

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_OPTIONS_H
