//===- Infer.cpp - mlc-run without --train: one model run, checked --------===//
//
// Inputs from files (or random), the model run once or benchmarked from one
// or more threads, then the outputs printed, saved and/or compared.
// Expectations are read and the output directory made before any run, so
// bad files fail fast.
//
//===----------------------------------------------------------------------===//

#include "Infer.h"
#include "Bench.h"
#include "Compare.h"
#include "TensorFile.h"

#include <cstdio>
#include <cstring>

namespace mlc::run {

int runInference(const Options &opts, mlc_model *model,
                 const std::vector<Slot> &inputSlots,
                 const std::vector<Slot> &outputSlots) {
  // Inputs: files where given, random values elsewhere.
  std::vector<std::string> inputFiles =
      bindFiles(opts.inputs, inputSlots, "input", "-i");
  std::vector<Buffer> inputBuffers;
  std::vector<mlc_tensor> inputs;
  for (size_t i = 0; i < inputSlots.size(); ++i) {
    inputBuffers.emplace_back(inputSlots[i].sizeBytes);
    if (inputFiles[i].empty()) {
      fillRandom(inputSlots[i], inputBuffers[i].data(), opts.seed, i);
    } else {
      npy::Array array = readFor(inputSlots[i], inputFiles[i], "input");
      if (!array.data.empty())
        memcpy(inputBuffers[i].data(), array.data.data(), array.data.size());
    }
    inputs.push_back(makeTensor(inputSlots[i], inputBuffers[i].data()));
  }

  // Load expectations before running so bad files fail fast.
  std::vector<std::string> expectFiles =
      bindFiles(opts.expects, outputSlots, "output", "--expect");
  std::vector<npy::Array> expected(outputSlots.size());
  for (size_t i = 0; i < outputSlots.size(); ++i)
    if (!expectFiles[i].empty())
      expected[i] = readFor(outputSlots[i], expectFiles[i], "output");
  std::string error;
  if (!opts.outputDir.empty() &&
      !tensorio::makeDirectory(opts.outputDir, error))
    fatal(error);

  // Run, from opts.concurrent threads when asked.
  int64_t warmup = opts.bench ? opts.warmup : 0;
  int64_t runs = opts.bench ? opts.bench : 1;
  std::vector<Worker> workers =
      runModel(model, opts.profile ? model : nullptr, inputs, outputSlots,
               warmup, runs, opts.concurrent);
  const std::vector<Buffer> &results = workers[0].outputs;

  bool ok = true;
  if (opts.print ||
      (opts.outputDir.empty() && opts.expects.empty() && opts.bench == 0))
    for (size_t o = 0; o < outputSlots.size(); ++o)
      printOutput(outputSlots[o], results[o].data());
  if (!opts.outputDir.empty())
    for (size_t o = 0; o < outputSlots.size(); ++o)
      if (!tensorio::writeTensorFile(
              tensorio::outputFileName(opts.outputDir, outputSlots[o].name),
              outputSlots[o].dtype, outputSlots[o].shape, results[o].data(),
              results[o].size(), error))
        fatal(error);
  for (size_t o = 0; o < outputSlots.size(); ++o)
    if (!expectFiles[o].empty())
      ok &= compare(outputSlots[o], results[o].data(), expected[o],
                    expectFiles[o], opts.rtol, opts.atol);
  if (opts.bench)
    reportBench(model, opts, workers, warmup);
  if (!opts.saveWeights.empty() &&
      mlc_model_save_safetensors(model, opts.saveWeights.c_str(), 0) != MLC_OK)
    fatal(mlc_last_error());
  mlc_model_close(model);
  fflush(stdout);
  return ok ? 0 : 1;
}

} // namespace mlc::run
