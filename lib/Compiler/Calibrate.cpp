//===- Calibrate.cpp - activation ranges from the float model -------------===//
//
// The float model, with the activations to observe as extra outputs, is
// compiled like any model (in a context of its own: a compile takes over
// the weights it reads) into a temporary model.so, opened through the
// runtime's C API and run on every calibration sample. Samples are checked
// before anything runs: an empty folder, a missing input, a wrong dtype or
// shape, NaN or infinity are errors that name the file.
//
//===----------------------------------------------------------------------===//

#include "Quantize.h"

#include "Npy.h"
#include "mlc/Compiler/Compiler.h"
#include "mlc/runtime.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <memory>

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace mlc::compiler {
namespace {

/// A temporary file, removed when this goes.
struct TempFile {
  std::string path;
  ~TempFile() {
    if (!path.empty())
      fs::remove(path);
  }
};

struct ModelCloser {
  void operator()(mlc_model *m) const { mlc_model_close(m); }
};

/// One sample: an array per model input, and where they came from.
struct Sample {
  std::vector<npy::Array> inputs;
  std::vector<std::string> files;
};

class Calibrator {
public:
  Calibrator(MLIRContext *ctx, const CompileOptions &options)
      : ctx(ctx), options(options) {}

  FailureOr<std::vector<ActivationRange>> run(ModuleOp calibModule,
                                              unsigned numObserved);
  unsigned numSamples() const { return sampleFiles.size(); }

private:
  LogicalResult fail(const Twine &message) {
    emitError(UnknownLoc::get(ctx)) << message;
    return failure();
  }
  LogicalResult compileModel(ModuleOp module, TempFile &so);
  LogicalResult listSamples(std::vector<std::vector<std::string>> &files);
  LogicalResult loadSample(const std::vector<std::string> &files,
                           Sample &sample);
  /// Runs every sample; `observe(i, values, count)` sees observed output i.
  LogicalResult
  runAll(llvm::function_ref<void(unsigned, const float *, uint64_t)> observe);

  MLIRContext *ctx;
  const CompileOptions &options;
  std::unique_ptr<mlc_model, ModelCloser> model;
  std::vector<mlc_tensor_info> inputs, outputs;
  std::vector<std::vector<std::string>> sampleFiles;
  std::vector<Sample> samples;
  unsigned firstObserved = 0;
};

LogicalResult Calibrator::compileModel(ModuleOp module, TempFile &so) {
  TempFile mlir;
  SmallString<128> p;
  int fd;
  if (fs::createTemporaryFile("mlc-calibration", "mlir", fd, p))
    return fail("cannot create a temporary file for the calibration model");
  mlir.path = std::string(p);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (failed(writeBytecodeToFile(module, os)) || (os.close(), os.has_error()))
      return fail("cannot write the calibration model to '" + mlir.path + "'");
  }
  if (fs::createTemporaryFile("mlc-calibration", "so", p))
    return fail("cannot create a temporary file for the calibration model");
  so.path = std::string(p);
  CompileOptions c = options;
  c.input = mlir.path;
  c.output = so.path;
  c.emit = OutputKind::SharedLibrary;
  c.report.clear();
  c.quantize.clear();
  c.calibration.clear();
  c.quantScales.clear();
  c.quantizeWeightBits = 8;
  c.weights = WeightsStorage::Embedded;
  c.cacheDir.clear();
  c.integerKernels = false;
  // Calibration runs here, on this CPU, whatever the model's target.
  c.target = Target::CPU;
  c.cpu.reset();
  c.vectorBits.reset();
  MLIRContext calibContext;
  if (failed(compile(calibContext, c, CompileHooks())))
    return fail("compiling the float model for calibration failed");
  return success();
}

LogicalResult
Calibrator::listSamples(std::vector<std::vector<std::string>> &files) {
  const std::string &dir = options.calibration;
  if (!fs::is_directory(dir))
    return fail("calibration folder '" + dir + "' does not exist");
  std::vector<std::string> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    entries.push_back(it->path());
  if (ec)
    return fail("cannot list '" + dir + "': " + ec.message());
  std::sort(entries.begin(), entries.end());
  if (inputs.size() == 1) {
    // One input: every .npy file is a sample.
    for (const std::string &e : entries)
      if (path::extension(e) == ".npy")
        files.push_back({e});
    if (files.empty())
      return fail("calibration folder '" + dir +
                  "' has no .npy samples (one file per sample for a model "
                  "with one input)");
    return success();
  }
  // Several inputs: a folder per sample with NAME.npy per input.
  for (const std::string &e : entries) {
    if (!fs::is_directory(e))
      continue;
    std::vector<std::string> sample;
    for (const mlc_tensor_info &in : inputs) {
      SmallString<128> f(e);
      path::append(f, std::string(in.name) + ".npy");
      if (!fs::exists(f))
        return fail("calibration sample '" + e + "' has no '" + in.name +
                    ".npy' for input '" + in.name + "'");
      sample.push_back(std::string(f));
    }
    files.push_back(std::move(sample));
  }
  if (files.empty())
    return fail("calibration folder '" + dir +
                "' has no samples (a model with several inputs takes one "
                "sub-folder per sample, holding NAME.npy for each input)");
  return success();
}

LogicalResult Calibrator::loadSample(const std::vector<std::string> &files,
                                     Sample &sample) {
  sample.files = files;
  sample.inputs.assign(files.size(), {});
  for (size_t i = 0; i < files.size(); ++i) {
    std::string error;
    npy::Array &a = sample.inputs[i];
    const mlc_tensor_info &in = inputs[i];
    if (!npy::readFile(files[i], a, error))
      return fail("calibration sample '" + files[i] + "': " + error);
    if (a.dtype != in.dtype)
      return fail("calibration sample '" + files[i] + "' is " +
                  mlc_dtype_name(a.dtype) + ", input '" + in.name + "' takes " +
                  mlc_dtype_name(in.dtype));
    if (ArrayRef<int64_t>(a.shape) != ArrayRef<int64_t>(in.shape, in.rank)) {
      std::string want, got;
      for (int32_t d = 0; d < in.rank; ++d)
        want += (d ? "x" : "") + std::to_string(in.shape[d]);
      for (size_t d = 0; d < a.shape.size(); ++d)
        got += (d ? "x" : "") + std::to_string(a.shape[d]);
      return fail("calibration sample '" + files[i] + "' has shape [" + got +
                  "], input '" + in.name + "' takes [" + want + "]");
    }
    if (npy::isFloatDType(a.dtype))
      for (uint64_t k = 0, n = a.numElements(); k < n; ++k)
        if (!std::isfinite(npy::loadFloat(a.dtype, a.data.data(), k)))
          return fail("calibration sample '" + files[i] +
                      "' holds NaN or infinity (element " + std::to_string(k) +
                      ")");
  }
  return success();
}

LogicalResult Calibrator::runAll(
    llvm::function_ref<void(unsigned, const float *, uint64_t)> observe) {
  std::vector<std::vector<uint8_t>> outData(outputs.size());
  std::vector<mlc_tensor> outTensors;
  for (size_t i = 0; i < outputs.size(); ++i) {
    outData[i].resize(outputs[i].size_bytes);
    outTensors.push_back({outData[i].data(), outputs[i].dtype, outputs[i].rank,
                          outputs[i].shape});
  }
  // Read and checked once, all before the first run (the percentile
  // method runs them twice).
  if (samples.empty()) {
    samples.resize(sampleFiles.size());
    for (auto [files, sample] : llvm::zip(sampleFiles, samples))
      if (failed(loadSample(files, sample)))
        return failure();
  }
  for (const Sample &sample : samples) {
    const std::vector<std::string> &files = sample.files;
    std::vector<mlc_tensor> in;
    for (size_t i = 0; i < inputs.size(); ++i)
      in.push_back({const_cast<uint8_t *>(sample.inputs[i].data.data()),
                    inputs[i].dtype, inputs[i].rank, inputs[i].shape});
    if (mlc_model_run(model.get(), in.data(), in.size(), outTensors.data(),
                      outTensors.size()) != MLC_OK)
      return fail("calibration run on '" + files.front() +
                  "' failed: " + mlc_last_error());
    for (unsigned i = firstObserved; i < outputs.size(); ++i)
      observe(i - firstObserved,
              reinterpret_cast<const float *>(outData[i].data()),
              outputs[i].num_elements);
  }
  return success();
}

FailureOr<std::vector<ActivationRange>> Calibrator::run(ModuleOp calibModule,
                                                        unsigned numObserved) {
  TempFile so;
  if (failed(compileModel(calibModule, so)))
    return failure();
  model.reset(mlc_model_open(so.path.c_str()));
  if (!model)
    return fail(Twine("cannot open the calibration model: ") +
                mlc_last_error());
  inputs.resize(mlc_model_num_inputs(model.get()));
  outputs.resize(mlc_model_num_outputs(model.get()));
  for (size_t i = 0; i < inputs.size(); ++i)
    mlc_model_input_info(model.get(), i, &inputs[i]);
  for (size_t i = 0; i < outputs.size(); ++i)
    mlc_model_output_info(model.get(), i, &outputs[i]);
  firstObserved = outputs.size() - numObserved;
  if (failed(listSamples(sampleFiles)))
    return failure();

  std::vector<ActivationRange> ranges(
      numObserved, {std::numeric_limits<double>::infinity(),
                    -std::numeric_limits<double>::infinity()});
  if (failed(runAll([&](unsigned i, const float *v, uint64_t n) {
        auto [lo, hi] = std::minmax_element(v, v + n);
        ranges[i].lo = std::min<double>(ranges[i].lo, *lo);
        ranges[i].hi = std::max<double>(ranges[i].hi, *hi);
      })))
    return failure();
  if (options.calibrationMethod != "percentile")
    return ranges;

  // Percentile: a second pass fills a histogram over each [min, max]; the
  // range becomes the 0.01th to the 99.99th percentile (outliers clipped).
  constexpr int kBins = 4096;
  constexpr double kTail = 1e-4;
  std::vector<std::vector<uint64_t>> hist(numObserved,
                                          std::vector<uint64_t>(kBins, 0));
  if (failed(runAll([&](unsigned i, const float *v, uint64_t n) {
        double lo = ranges[i].lo, width = (ranges[i].hi - lo) / kBins;
        for (uint64_t k = 0; k < n; ++k) {
          int b = width > 0 ? int((v[k] - lo) / width) : 0;
          ++hist[i][std::clamp(b, 0, kBins - 1)];
        }
      })))
    return failure();
  for (unsigned i = 0; i < numObserved; ++i) {
    uint64_t total = 0;
    for (uint64_t c : hist[i])
      total += c;
    double width = (ranges[i].hi - ranges[i].lo) / kBins;
    uint64_t tail = uint64_t(kTail * total), seen = 0;
    int first = 0, last = kBins - 1;
    while (first < last && seen + hist[i][first] <= tail)
      seen += hist[i][first++];
    seen = 0;
    while (last > first && seen + hist[i][last] <= tail)
      seen += hist[i][last--];
    double lo = ranges[i].lo;
    ranges[i] = {lo + first * width, lo + (last + 1) * width};
  }
  return ranges;
}

} // namespace

FailureOr<std::vector<ActivationRange>> calibrate(ModuleOp calibModule,
                                                  unsigned numObserved,
                                                  const CompileOptions &options,
                                                  unsigned &numSamples) {
  Calibrator calibrator(calibModule.getContext(), options);
  FailureOr<std::vector<ActivationRange>> ranges =
      calibrator.run(calibModule, numObserved);
  numSamples = calibrator.numSamples();
  return ranges;
}

} // namespace mlc::compiler
