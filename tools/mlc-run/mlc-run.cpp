//===- mlc-run.cpp - run, check and benchmark a compiled model ------------===//
//
// mlc-run MODEL.so [options]: feeds .npy (or seeded random) inputs to a model
// through the runtime C API, then prints, saves, checks and/or times the
// outputs; with --train, trains a trainable model on .npy data instead.
// Every failure prints "mlc-run: error: ..." and exits with 1.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "Profile.h"
#include "mlc/Frontend/ONNX/ONNXModel.h"
#include "mlc/runtime.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace mlc;

namespace {

const char kUsage[] =
    R"(usage: mlc-run MODEL.so [options]

Runs a model compiled by mlc-compile.

inputs:
  -i, --input [NAME=]FILE.npy   input from a .npy file (or an ONNX TensorProto
                                .pb file), by name or (without
                                NAME=) positionally in declaration order;
                                repeatable. Inputs not given get random values
                                (floats uniform in [-1,1), integers in [0,10),
                                bools 0/1).
  --seed N                      seed for the random inputs (default 0)

outputs:
  --print                       print each output (default when none of -o,
                                --expect, --bench is given)
  -o, --output-dir DIR          save each output as DIR/<name>.npy
  --expect [NAME=]FILE.npy      check an output against a .npy file, by name
                                or positionally; repeatable. Elements match if
                                |got - expected| <= atol + rtol * |expected|
                                (NaN matches only NaN).
  --rtol X                      relative tolerance (default 1e-4)
  --atol X                      absolute tolerance (default 1e-5)

running:
  --bench N                     after warm-up runs, time N runs and print
                                "median_ms=<x> min_ms=<y>"
  --bench-times                 with --bench, also print every run's time,
                                in run order: "times_ms=<t1>,<t2>,..."
  --warmup N                    warm-up runs before --bench (default 3)
  --threads T                   threads for the model's parallel loops
                                (default 0: one per CPU the process may
                                run on; at most 64 are used)
  --concurrent T                run from T threads at once, each with its own
                                outputs, and check all results are bitwise
                                identical (default 1)
  --profile                     time every kernel over the --bench runs
                                (default 20, after the warm-up) and print a
                                table sorted by time: kernel, source nodes,
                                ops, calls, ms per run, % of the run, GFLOP,
                                GFLOP/s, then the kernels' sum against the
                                wall time per run; with --train, over the
                                train steps
  --profile-json FILE           --profile, and write the table as JSON
  --info                        print the model's inputs, outputs and
                                workspace size (and a trainable model's train
                                inputs and variables), then exit
  -h, --help                    show this help

training (models compiled with mlc-compile --train):
  --train X.npy Y.npy           train on samples X (first axis: N samples,
                                the rest: the data train input's per-sample
                                shape and dtype) and labels/targets Y (N
                                samples: integers (i64 or i32, converted to
                                the label input's dtype) for a classifier,
                                floats for a regression)
  --epochs E                    passes over the data (default 1); each epoch
                                shuffles the samples and prints
                                "epoch E/EPOCHS loss=<mean step loss>
                                time=<s>s". The last partial batch of an epoch
                                is dropped.
  --batch B                     must equal the compiled training batch (dim 0
                                of the train inputs; the default)
  --seed N                      seeds the shuffling (default 0)
  --eval XT.npy YT.npy          after training, run inference on the training
                                and the test set (in chunks of the inference
                                batch, the last one zero-padded) and print
                                "train_accuracy=<x>" and "test_accuracy=<x>"
                                (argmax over the last axis of output 0 vs
                                integer labels), or train_mse/test_mse for
                                float targets
  --load-weights F.safetensors  load variables before training or running
  --save-weights F.safetensors  save the params and buffers after training
                                (or after loading, without --train)

Exit status: 0 on success, 1 on any error (bad usage, bad files, failed runs,
mismatching outputs).
)";

[[noreturn]] void fatal(const std::string &message) {
  fprintf(stderr, "mlc-run: error: %s\n", message.c_str());
  exit(1);
}

[[noreturn]] void usageError(const std::string &message) {
  fprintf(stderr, "mlc-run: error: %s\n(run 'mlc-run --help' for usage)\n",
          message.c_str());
  exit(1);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

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

int64_t parseInt(const std::string &option, const std::string &text,
                 int64_t min, int64_t max) {
  errno = 0;
  char *end = nullptr;
  long long v = strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || v < min || v > max)
    usageError(option + " expects an integer in [" + std::to_string(min) +
               ", " + std::to_string(max) + "], got '" + text + "'");
  return v;
}

double parseTolerance(const std::string &option, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  double v = strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !std::isfinite(v) || v < 0)
    usageError(option + " expects a non-negative number, got '" + text + "'");
  return v;
}

Options parseArgs(int argc, char **argv) {
  Options opts;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // Long options also accept --name=value.
    std::string name = arg, inlineValue;
    bool hasInlineValue = false;
    if (arg.compare(0, 2, "--") == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        name = arg.substr(0, eq);
        inlineValue = arg.substr(eq + 1);
        hasInlineValue = true;
      }
    }
    auto value = [&]() -> std::string {
      if (hasInlineValue)
        return inlineValue;
      if (i + 1 >= argc)
        usageError("missing value after " + name);
      return argv[++i];
    };
    auto noValue = [&] {
      if (hasInlineValue)
        usageError(name + " takes no value");
    };

    if (name == "-h" || name == "--help") {
      fputs(kUsage, stdout);
      exit(0);
    } else if (name == "-i" || name == "--input") {
      opts.inputs.push_back(value());
    } else if (name == "--expect") {
      opts.expects.push_back(value());
    } else if (name == "-o" || name == "--output-dir") {
      opts.outputDir = value();
      if (opts.outputDir.empty())
        usageError("empty output directory");
    } else if (name == "--print") {
      noValue();
      opts.print = true;
    } else if (name == "--info") {
      noValue();
      opts.info = true;
    } else if (name == "--bench") {
      opts.bench = parseInt(name, value(), 1, 100000000);
    } else if (name == "--bench-times") {
      noValue();
      opts.benchTimes = true;
    } else if (name == "--warmup") {
      opts.warmup = parseInt(name, value(), 0, 100000000);
    } else if (name == "--concurrent") {
      opts.concurrent = parseInt(name, value(), 1, 1024);
    } else if (name == "--threads") {
      opts.threads = parseInt(name, value(), 0, 1024);
    } else if (name == "--profile") {
      noValue();
      opts.profile = true;
    } else if (name == "--profile-json") {
      opts.profileJson = value();
      if (opts.profileJson.empty())
        usageError("empty --profile-json file name");
      opts.profile = true;
    } else if (name == "--seed") {
      opts.seed = uint64_t(parseInt(name, value(), 0, INT64_MAX));
    } else if (name == "--rtol") {
      opts.rtol = parseTolerance(name, value());
    } else if (name == "--atol") {
      opts.atol = parseTolerance(name, value());
    } else if (name == "--train" || name == "--eval") {
      std::string x = value();
      if (i + 1 >= argc)
        usageError(name + " expects two files: X.npy Y.npy");
      std::string y = argv[++i];
      (name == "--train" ? opts.trainX : opts.evalX) = x;
      (name == "--train" ? opts.trainY : opts.evalY) = y;
    } else if (name == "--epochs") {
      opts.epochs = parseInt(name, value(), 1, 1000000);
    } else if (name == "--batch") {
      opts.batch = parseInt(name, value(), 1, INT32_MAX);
    } else if (name == "--load-weights") {
      opts.loadWeights = value();
    } else if (name == "--save-weights") {
      opts.saveWeights = value();
    } else if (arg.size() > 1 && arg[0] == '-') {
      usageError("unknown option '" + arg + "'");
    } else if (opts.modelPath.empty()) {
      if (arg.empty())
        usageError("empty model path");
      opts.modelPath = arg;
    } else {
      usageError("unexpected argument '" + arg +
                 "' (inputs are given with -i)");
    }
  }
  if (opts.modelPath.empty())
    usageError("no model given");
  if (opts.benchTimes && !opts.bench)
    usageError("--bench-times needs --bench");
  if (opts.profile && opts.concurrent != 1)
    usageError("--profile times one run at a time; it cannot be combined "
               "with --concurrent");
  // Profiling is a benchmark: enough runs to average over.
  if (opts.profile && !opts.bench && opts.trainX.empty())
    opts.bench = 20;
  if (opts.trainX.empty()) {
    if (opts.epochs)
      usageError("--epochs needs --train");
    if (opts.batch)
      usageError("--batch needs --train");
    if (!opts.evalX.empty())
      usageError("--eval needs --train");
  } else {
    if (!opts.inputs.empty() || !opts.expects.empty() ||
        !opts.outputDir.empty() || opts.bench || opts.print ||
        opts.concurrent != 1)
      usageError("--train cannot be combined with -i, --expect, -o, --print, "
                 "--bench or --concurrent");
  }
  return opts;
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

struct FreeDeleter {
  void operator()(void *p) const { free(p); }
};

/// A zero-initialized, 64-byte aligned byte buffer.
class Buffer {
public:
  explicit Buffer(size_t size) : bytes(size) {
    void *p = nullptr;
    if (posix_memalign(&p, 64, std::max<size_t>(size, 1)) != 0)
      fatal("out of memory allocating " + std::to_string(size) + " bytes");
    memset(p, 0, std::max<size_t>(size, 1));
    storage.reset(p);
  }
  uint8_t *data() const { return static_cast<uint8_t *>(storage.get()); }
  size_t size() const { return bytes; }

private:
  std::unique_ptr<void, FreeDeleter> storage;
  size_t bytes;
};

/// A model input or output: its declaration plus a buffer.
struct Slot {
  std::string name;
  mlc_dtype dtype;
  std::vector<int64_t> shape;
  uint64_t numElements;
  uint64_t sizeBytes;
};

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string typeString(mlc_dtype dtype, const std::vector<int64_t> &shape) {
  return std::string(mlc_dtype_name(dtype)) + " " + shapeString(shape);
}

Slot slotFromInfo(const mlc_tensor_info &info) {
  Slot slot;
  slot.name = info.name;
  slot.dtype = info.dtype;
  slot.shape.assign(info.shape, info.shape + info.rank);
  slot.numElements = info.num_elements;
  slot.sizeBytes = info.size_bytes;
  return slot;
}

std::vector<Slot> describe(const mlc_model *model, bool inputs) {
  int32_t n =
      inputs ? mlc_model_num_inputs(model) : mlc_model_num_outputs(model);
  std::vector<Slot> slots;
  for (int32_t i = 0; i < n; ++i) {
    mlc_tensor_info info;
    mlc_status status = inputs ? mlc_model_input_info(model, i, &info)
                               : mlc_model_output_info(model, i, &info);
    if (status != MLC_OK)
      fatal(mlc_last_error());
    slots.push_back(slotFromInfo(info));
  }
  return slots;
}

mlc_tensor makeTensor(const Slot &slot, void *data) {
  mlc_tensor t;
  t.data = data;
  t.dtype = slot.dtype;
  t.rank = int32_t(slot.shape.size());
  t.shape = slot.shape.empty() ? nullptr : slot.shape.data();
  return t;
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

std::string formatElement(mlc_dtype dtype, const uint8_t *data, uint64_t i) {
  char buf[64];
  if (npy::isFloatDType(dtype))
    snprintf(buf, sizeof(buf), "%.7g", npy::loadFloat(dtype, data, i));
  else if (dtype == MLC_BOOL)
    return data[i] == 0   ? "False"
           : data[i] == 1 ? "True"
                          : std::to_string(data[i]);
  else
    snprintf(buf, sizeof(buf), "%" PRId64, npy::loadInt(dtype, data, i));
  return buf;
}

/// SplitMix64: tiny, fast, and good enough for test data.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53 * 2.0 - 1.0; }
};

void fillRandom(const Slot &slot, uint8_t *data, uint64_t seed,
                size_t inputIndex) {
  // Seeded per input, so an input's values do not depend on which other
  // inputs came from files.
  Random rng{seed * 0x100000001b3ull + inputIndex + 1};
  for (uint64_t i = 0; i < slot.numElements; ++i) {
    switch (slot.dtype) {
    case MLC_F32: {
      float v = float(rng.uniform());
      memcpy(data + 4 * i, &v, 4);
      break;
    }
    case MLC_F64: {
      double v = rng.uniform();
      memcpy(data + 8 * i, &v, 8);
      break;
    }
    case MLC_F16: {
      uint16_t v = npy::floatToHalf(float(rng.uniform()));
      memcpy(data + 2 * i, &v, 2);
      break;
    }
    case MLC_BF16: {
      uint16_t v = npy::floatToBF16(float(rng.uniform()));
      memcpy(data + 2 * i, &v, 2);
      break;
    }
    case MLC_BOOL:
      data[i] = uint8_t(rng.next() >> 63);
      break;
    default: {
      // Small non-negative integers are valid indices for gathers and such.
      int64_t v = int64_t(rng.next() % 10);
      size_t size = mlc_dtype_size(slot.dtype);
      // Little-endian: the low bytes of v are the narrower integer.
      memcpy(data + size * i, &v, size);
      break;
    }
    }
  }
}

//===----------------------------------------------------------------------===//
// Binding files to inputs and outputs
//===----------------------------------------------------------------------===//

/// Resolves "[NAME=]FILE" arguments against `slots` (inputs or outputs):
/// returns one file path per slot ("" where none was given).
std::vector<std::string> bindFiles(const std::vector<std::string> &args,
                                   const std::vector<Slot> &slots,
                                   const char *kind, const char *option) {
  std::vector<std::string> files(slots.size());
  std::vector<const std::string *> positional;
  for (const std::string &arg : args) {
    size_t eq = arg.find('=');
    size_t index = slots.size();
    if (eq != std::string::npos)
      for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i].name == arg.substr(0, eq))
          index = i;
    if (index == slots.size()) {
      // "NAME=FILE" with an unknown NAME is a typo unless the whole argument
      // is an existing file's path.
      struct stat st;
      if (eq != std::string::npos && stat(arg.c_str(), &st) != 0) {
        std::string names;
        for (const Slot &slot : slots)
          names += (names.empty() ? "" : ", ") + slot.name;
        fatal("the model has no " + std::string(kind) + " named '" +
              arg.substr(0, eq) + "' (" + kind + "s: " + names + ")");
      }
      positional.push_back(&arg);
      continue;
    }
    if (!files[index].empty())
      fatal(std::string(kind) + " '" + slots[index].name + "' given twice");
    files[index] = arg.substr(eq + 1);
    if (files[index].empty())
      fatal(std::string("empty file name in ") + option + " " + arg);
  }
  size_t next = 0;
  for (const std::string *arg : positional) {
    while (next < slots.size() && !files[next].empty())
      ++next;
    if (next == slots.size())
      fatal("too many " + std::string(kind) + "s: " + option + " " + *arg +
            " has no " + kind + " left to bind to (the model has " +
            std::to_string(slots.size()) + ")");
    files[next++] = *arg;
  }
  return files;
}

/// Reads a .npy file for `slot`, checking dtype and shape.
/// The runtime dtype of an ONNX tensor type; invalid when there is none.
mlc_dtype dtypeForONNX(int32_t type) {
  switch (type) {
  case onnx::Float:
    return MLC_F32;
  case onnx::Double:
    return MLC_F64;
  case onnx::Float16:
    return MLC_F16;
  case onnx::BFloat16:
    return MLC_BF16;
  case onnx::Int8:
    return MLC_I8;
  case onnx::Int16:
    return MLC_I16;
  case onnx::Int32:
    return MLC_I32;
  case onnx::Int64:
    return MLC_I64;
  case onnx::UInt8:
    return MLC_U8;
  case onnx::Bool:
    return MLC_BOOL;
  default:
    return MLC_DTYPE_INVALID;
  }
}

/// Reads an ONNX TensorProto file (ONNX test data) as an array for a slot
/// of type `want`.
bool readONNXTensor(const std::string &path, mlc_dtype want, npy::Array &array,
                    std::string &error) {
  onnx::Tensor t;
  if (!onnx::loadTensorFile(path, t, error)) {
    error = path + ": " + error;
    return false;
  }
  array.dtype = dtypeForONNX(t.dataType);
  // ONNX's own test data stores bfloat16 tensors as UINT16 bit patterns.
  if (t.dataType == onnx::UInt16 && want == MLC_BF16)
    array.dtype = MLC_BF16;
  if (array.dtype == MLC_DTYPE_INVALID) {
    error =
        path + ": unsupported tensor type " + onnx::dataTypeName(t.dataType);
    return false;
  }
  array.shape = t.dims;
  array.data.assign(t.data.begin(), t.data.end());
  return true;
}

npy::Array readFor(const Slot &slot, const std::string &path,
                   const char *kind) {
  npy::Array array;
  std::string error;
  bool isPB = path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
  if (!(isPB ? readONNXTensor(path, slot.dtype, array, error)
             : npy::readFile(path, array, error)))
    fatal(error);
  // numpy has no bfloat16: bf16 tensors come as f4 files, rounded to
  // nearest even here.
  if (slot.dtype == MLC_BF16 && array.dtype == MLC_F32 &&
      array.shape == slot.shape) {
    std::vector<uint8_t> bf16(2 * array.numElements());
    for (uint64_t i = 0; i < array.numElements(); ++i) {
      float f;
      memcpy(&f, array.data.data() + 4 * i, 4);
      uint16_t b = npy::floatToBF16(f);
      memcpy(bf16.data() + 2 * i, &b, 2);
    }
    array.dtype = MLC_BF16;
    array.data = std::move(bf16);
  }
  if (array.dtype != slot.dtype || array.shape != slot.shape)
    fatal(std::string(kind) + " '" + slot.name + "' is " +
          typeString(slot.dtype, slot.shape) + " but '" + path + "' holds " +
          typeString(array.dtype, array.shape));
  return array;
}

//===----------------------------------------------------------------------===//
// Output handling
//===----------------------------------------------------------------------===//

void printOutput(const Slot &slot, const uint8_t *data) {
  printf("%s: %s\n", slot.name.c_str(),
         typeString(slot.dtype, slot.shape).c_str());
  if (slot.shape.empty()) {
    printf("%s\n", formatElement(slot.dtype, data, 0).c_str());
    return;
  }
  const uint64_t kShown = 10;
  std::string line = "[";
  for (uint64_t i = 0; i < slot.numElements && i < kShown; ++i)
    line += (i ? ", " : "") + formatElement(slot.dtype, data, i);
  if (slot.numElements > kShown)
    line += ", ... (" + std::to_string(slot.numElements) + " elements)";
  printf("%s]\n", line.c_str());
}

std::string multiIndex(const std::vector<int64_t> &shape, uint64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = int64_t(flat % uint64_t(shape[d]));
    flat /= uint64_t(shape[d]);
  }
  return shapeString(index);
}

/// Compares an output with its expected values; reports and returns false on
/// mismatch.
bool compare(const Slot &slot, const uint8_t *got, const npy::Array &expected,
             const std::string &path, double rtol, double atol) {
  uint64_t mismatches = 0, worst = 0;
  double worstErr = -1, maxErr = 0;
  for (uint64_t i = 0; i < slot.numElements; ++i) {
    double g, e;
    if (npy::isFloatDType(slot.dtype)) {
      g = npy::loadFloat(slot.dtype, got, i);
      e = npy::loadFloat(slot.dtype, expected.data.data(), i);
      if (std::isnan(g) && std::isnan(e))
        continue;
      if (g == e)
        continue;
    } else {
      int64_t gi = npy::loadInt(slot.dtype, got, i);
      int64_t ei = npy::loadInt(slot.dtype, expected.data.data(), i);
      if (gi == ei)
        continue;
      g = double(gi);
      e = double(ei);
    }
    // NaN against a number, or infinities that differ, is infinitely wrong.
    double err = std::fabs(g - e);
    if (std::isnan(err))
      err = INFINITY;
    if (err <= atol + rtol * std::fabs(e)) {
      maxErr = std::max(maxErr, err);
      continue;
    }
    ++mismatches;
    if (err > worstErr) {
      worstErr = err;
      worst = i;
    }
  }
  if (mismatches == 0) {
    printf("%s: matches '%s' (%" PRIu64 " elements, max abs err %.3g)\n",
           slot.name.c_str(), path.c_str(), slot.numElements, maxErr);
    return true;
  }
  double expectedWorst =
      npy::isFloatDType(slot.dtype)
          ? npy::loadFloat(slot.dtype, expected.data.data(), worst)
          : double(npy::loadInt(slot.dtype, expected.data.data(), worst));
  double relErr = worstErr / std::fabs(expectedWorst);
  fprintf(stderr,
          "mlc-run: error: output '%s' does not match '%s': %" PRIu64
          " of %" PRIu64 " elements differ (rtol=%g, atol=%g)\n"
          "  worst at index %" PRIu64 " %s: got %s, expected %s, abs err %.6g, "
          "rel err %.6g\n",
          slot.name.c_str(), path.c_str(), mismatches, slot.numElements, rtol,
          atol, worst, multiIndex(slot.shape, worst).c_str(),
          formatElement(slot.dtype, got, worst).c_str(),
          formatElement(slot.dtype, expected.data.data(), worst).c_str(),
          worstErr, relErr);
  return false;
}

std::string outputFileName(const std::string &dir, const std::string &name) {
  std::string safe = name;
  std::replace(safe.begin(), safe.end(), '/', '_');
  return dir + "/" + safe + ".npy";
}

void makeDirectory(const std::string &dir) {
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      fatal("'" + dir + "' exists and is not a directory");
    return;
  }
  if (mkdir(dir.c_str(), 0777) != 0)
    fatal("cannot create directory '" + dir + "': " + strerror(errno));
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

struct Worker {
  std::vector<Buffer> outputs;
  std::vector<double> timesMs;
  std::string error;
};

void runWorker(const mlc_model *model, const std::vector<mlc_tensor> &inputs,
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

//===----------------------------------------------------------------------===//
// Training
//===----------------------------------------------------------------------===//

std::vector<Slot> describeTrainInputs(const mlc_model *model) {
  std::vector<Slot> slots;
  for (int32_t i = 0, e = mlc_model_num_train_inputs(model); i < e; ++i) {
    mlc_tensor_info info;
    if (mlc_model_train_input_info(model, i, &info) != MLC_OK)
      fatal(mlc_last_error());
    slots.push_back(slotFromInfo(info));
  }
  return slots;
}

bool isIntDType(mlc_dtype dtype) {
  return dtype == MLC_I8 || dtype == MLC_I16 || dtype == MLC_I32 ||
         dtype == MLC_I64 || dtype == MLC_U8;
}

/// Samples along the first axis of a .npy file, in the dtype of the model
/// input they feed.
struct DataSet {
  std::string path;
  uint64_t count = 0;
  uint64_t sampleBytes = 0;
  uint64_t sampleElements = 0;
  std::vector<uint8_t> data;
  const uint8_t *sample(uint64_t i) const {
    return data.data() + i * sampleBytes;
  }
};

/// "f32 [N,4]": the file shape a slot with batch dim 0 accepts.
std::string samplesType(const Slot &slot) {
  std::string s = std::string(mlc_dtype_name(slot.dtype)) + " [N";
  for (size_t d = 1; d < slot.shape.size(); ++d)
    s += "," + std::to_string(slot.shape[d]);
  return s + "]";
}

/// Reads `path` as samples for `slot` (whose dim 0 is the batch). Data must
/// have the slot's dtype; labels may be any integer dtype for an integer slot
/// (or any float dtype for a float one) and are converted.
DataSet readSamples(const std::string &path, const Slot &slot, bool labels,
                    const char *what) {
  if (slot.shape.empty())
    fatal(std::string(what) + " '" + slot.name +
          "' is a scalar: it has no batch dimension to fill from '" + path +
          "'");
  npy::Array array;
  std::string error;
  if (!npy::readFile(path, array, error))
    fatal(error);
  bool sameSample = array.shape.size() == slot.shape.size() &&
                    std::equal(array.shape.begin() + 1, array.shape.end(),
                               slot.shape.begin() + 1);
  bool intLabels = labels && isIntDType(slot.dtype) && isIntDType(array.dtype);
  bool floatTargets =
      labels && npy::isFloatDType(slot.dtype) && npy::isFloatDType(array.dtype);
  if (!sameSample ||
      (array.dtype != slot.dtype && !intLabels && !floatTargets)) {
    std::string want = samplesType(slot);
    if (labels)
      want = (isIntDType(slot.dtype) ? "integer labels " : "float targets ") +
             want;
    fatal("'" + path + "' holds " + typeString(array.dtype, array.shape) +
          " but " + what + " '" + slot.name + "' needs " + want +
          " (compiled shape " + shapeString(slot.shape) + ")");
  }
  DataSet set;
  set.path = path;
  set.count = uint64_t(array.shape[0]);
  set.sampleElements = slot.numElements / uint64_t(slot.shape[0]);
  set.sampleBytes = set.sampleElements * mlc_dtype_size(slot.dtype);
  if (array.dtype == slot.dtype) {
    set.data = std::move(array.data);
    return set;
  }
  // Convert element by element (little-endian: an integer's low bytes are
  // the narrower integer).
  uint64_t n = array.numElements();
  size_t size = mlc_dtype_size(slot.dtype);
  set.data.resize(n * size);
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t *dst = set.data.data() + i * size;
    if (intLabels) {
      int64_t v = npy::loadInt(array.dtype, array.data.data(), i);
      memcpy(dst, &v, size);
      continue;
    }
    double v = npy::loadFloat(array.dtype, array.data.data(), i);
    if (slot.dtype == MLC_F32) {
      float f = float(v);
      memcpy(dst, &f, 4);
    } else if (slot.dtype == MLC_F64) {
      memcpy(dst, &v, 8);
    } else {
      uint16_t h = slot.dtype == MLC_F16 ? npy::floatToHalf(float(v))
                                         : npy::floatToBF16(float(v));
      memcpy(dst, &h, 2);
    }
  }
  return set;
}

/// Accuracy (integer labels) or mean squared error (float targets) of the
/// inference entry on a data set, in chunks of the inference batch.
double evaluate(const mlc_model *model, const DataSet &x, const DataSet &y,
                const Slot &labelSlot) {
  std::vector<Slot> inputs = describe(model, true);
  std::vector<Slot> outputs = describe(model, false);
  if (inputs.size() != 1)
    fatal("--eval needs a model whose inference takes one input (this one "
          "takes " +
          std::to_string(inputs.size()) + ")");
  const Slot &in = inputs[0];
  const Slot &out = outputs[0];
  if (in.shape.empty() || out.shape.empty() || out.shape[0] != in.shape[0])
    fatal("--eval needs inference input '" + in.name + "' and output '" +
          out.name + "' to share their batch dimension (dim 0), but they are " +
          typeString(in.dtype, in.shape) + " and " +
          typeString(out.dtype, out.shape));
  if (!npy::isFloatDType(out.dtype))
    fatal("--eval needs a float output 0, but '" + out.name + "' is " +
          typeString(out.dtype, out.shape));
  uint64_t batch = uint64_t(in.shape[0]);
  uint64_t inSample = in.sizeBytes / batch;
  if (inSample != x.sampleBytes)
    fatal("'" + x.path + "' samples do not fit inference input '" + in.name +
          "' " + typeString(in.dtype, in.shape));
  uint64_t outSample = out.numElements / batch;
  bool classify = isIntDType(labelSlot.dtype);
  uint64_t classes = out.shape.size() > 1 ? uint64_t(out.shape.back()) : 1;
  uint64_t perSample = classify ? outSample / classes : outSample;
  if (perSample != y.sampleElements)
    fatal("output '" + out.name + "' " + typeString(out.dtype, out.shape) +
          " gives " + std::to_string(perSample) +
          (classify ? " predicted labels" : " values") + " per sample, but '" +
          y.path + "' has " + std::to_string(y.sampleElements));

  Buffer inBuf(in.sizeBytes);
  std::vector<Buffer> outBufs;
  std::vector<mlc_tensor> outTensors;
  for (const Slot &s : outputs) {
    outBufs.emplace_back(s.sizeBytes);
    outTensors.push_back(makeTensor(s, outBufs.back().data()));
  }
  mlc_tensor inTensor = makeTensor(in, inBuf.data());
  double total = 0; // correct predictions, or squared errors
  for (uint64_t first = 0; first < x.count; first += batch) {
    uint64_t rows = std::min(batch, x.count - first);
    memcpy(inBuf.data(), x.sample(first), rows * inSample);
    memset(inBuf.data() + rows * inSample, 0, (batch - rows) * inSample);
    if (mlc_model_run(model, &inTensor, 1, outTensors.data(),
                      int32_t(outTensors.size())) != MLC_OK)
      fatal(std::string("run failed: ") + mlc_last_error());
    // Padded rows are computed but ignored.
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t k = 0; k < perSample; ++k) {
        uint64_t label = (first + r) * perSample + k;
        if (classify) {
          uint64_t base = r * outSample + k * classes, best = 0;
          double bestValue = -INFINITY;
          for (uint64_t c = 0; c < classes; ++c) {
            double v = npy::loadFloat(out.dtype, outBufs[0].data(), base + c);
            if (v > bestValue) {
              bestValue = v;
              best = c;
            }
          }
          total += npy::loadInt(labelSlot.dtype, y.data.data(), label) ==
                   int64_t(best);
        } else {
          double d =
              npy::loadFloat(out.dtype, outBufs[0].data(), r * outSample + k) -
              npy::loadFloat(labelSlot.dtype, y.data.data(), label);
          total += d * d;
        }
      }
    }
  }
  return total / double(x.count * perSample);
}

//===----------------------------------------------------------------------===//
// Profiling
//===----------------------------------------------------------------------===//

void enableProfiling(mlc_model *model) {
  if (mlc_model_set_profiling(model, 1) != MLC_OK)
    fatal(mlc_last_error());
}

void printProfile(const mlc_model *model, const Options &opts,
                  const char *entry, int64_t runs, double wallMsPerRun) {
  mlc::run::ProfileReport report;
  report.model = opts.modelPath;
  report.entry = entry;
  report.runs = runs;
  report.threads = mlc_model_num_threads(model);
  report.wallMsPerRun = wallMsPerRun;
  std::string error;
  if (!mlc::run::reportProfile(model, report, opts.profileJson, error))
    fatal(error);
}

int runTraining(const Options &opts, mlc_model *model) {
  std::vector<Slot> slots = describeTrainInputs(model);
  if (slots.size() != 2)
    fatal("--train needs a model with two train inputs (data and labels); "
          "this one has " +
          std::to_string(slots.size()));
  const Slot &xs = slots[0], &ys = slots[1];
  if (xs.shape.empty() || ys.shape.empty() || xs.shape[0] != ys.shape[0])
    fatal("train inputs '" + xs.name + "' " + typeString(xs.dtype, xs.shape) +
          " and '" + ys.name + "' " + typeString(ys.dtype, ys.shape) +
          " do not share a batch dimension (dim 0)");
  int64_t batch = xs.shape[0];
  if (opts.batch && opts.batch != batch)
    fatal("--batch " + std::to_string(opts.batch) +
          " does not match the model's compiled training batch " +
          std::to_string(batch) + " (dim 0 of train input '" + xs.name +
          "'; recompile the model to change it)");

  DataSet x = readSamples(opts.trainX, xs, false, "train input");
  DataSet y = readSamples(opts.trainY, ys, true, "train input");
  if (x.count != y.count)
    fatal("'" + opts.trainX + "' has " + std::to_string(x.count) +
          " samples but '" + opts.trainY + "' has " + std::to_string(y.count));
  if (x.count < uint64_t(batch))
    fatal("'" + opts.trainX + "' has " + std::to_string(x.count) +
          " samples, fewer than the training batch " + std::to_string(batch));
  // Read the test set before training so bad files fail fast.
  DataSet xt, yt;
  if (!opts.evalX.empty()) {
    std::vector<Slot> inputs = describe(model, true);
    if (inputs.size() != 1)
      fatal("--eval needs a model whose inference takes one input (this one "
            "takes " +
            std::to_string(inputs.size()) + ")");
    xt = readSamples(opts.evalX, xs, false, "train input");
    yt = readSamples(opts.evalY, ys, true, "train input");
    if (xt.count != yt.count)
      fatal("'" + opts.evalX + "' has " + std::to_string(xt.count) +
            " samples but '" + opts.evalY + "' has " +
            std::to_string(yt.count));
  }

  Buffer xb(xs.sizeBytes), yb(ys.sizeBytes);
  mlc_tensor inputs[2] = {makeTensor(xs, xb.data()), makeTensor(ys, yb.data())};
  std::vector<uint64_t> order(x.count);
  for (uint64_t i = 0; i < x.count; ++i)
    order[i] = i;
  Random rng{opts.seed};
  uint64_t steps = x.count / uint64_t(batch);
  int64_t epochs = opts.epochs ? opts.epochs : 1;
  double stepMs = 0; // all train steps, for --profile
  if (opts.profile)
    enableProfiling(model);
  for (int64_t epoch = 1; epoch <= epochs; ++epoch) {
    auto start = std::chrono::steady_clock::now();
    // Fisher-Yates.
    for (uint64_t i = x.count - 1; i > 0; --i)
      std::swap(order[i], order[rng.next() % (i + 1)]);
    double sum = 0;
    for (uint64_t s = 0; s < steps; ++s) {
      for (int64_t r = 0; r < batch; ++r) {
        uint64_t sample = order[s * uint64_t(batch) + uint64_t(r)];
        memcpy(xb.data() + r * x.sampleBytes, x.sample(sample), x.sampleBytes);
        memcpy(yb.data() + r * y.sampleBytes, y.sample(sample), y.sampleBytes);
      }
      float loss = 0;
      auto stepStart = std::chrono::steady_clock::now();
      if (mlc_model_train_step(model, inputs, 2, &loss) != MLC_OK)
        fatal(std::string("train step failed: ") + mlc_last_error());
      stepMs += std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - stepStart)
                    .count();
      sum += loss;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    printf("epoch %" PRId64 "/%" PRId64 " loss=%.4g time=%.2fs\n", epoch,
           epochs, sum / double(steps), seconds);
    fflush(stdout);
  }
  if (opts.profile) {
    // Evaluation below runs inference: not part of the train steps' table.
    mlc_model_set_profiling(model, 0);
    int64_t totalSteps = int64_t(steps) * epochs;
    printProfile(model, opts, "train", totalSteps,
                 totalSteps ? stepMs / double(totalSteps) : 0);
  }

  if (!opts.evalX.empty()) {
    // Accuracy in [0,1] with fixed decimals; an MSE may be tiny.
    bool classify = isIntDType(ys.dtype);
    const char *format = classify ? "%s_accuracy=%.4f\n" : "%s_mse=%.6g\n";
    printf(format, "train", evaluate(model, x, y, ys));
    printf(format, "test", evaluate(model, xt, yt, ys));
  }
  if (!opts.saveWeights.empty() &&
      mlc_model_save_safetensors(model, opts.saveWeights.c_str(), 0) != MLC_OK)
    fatal(mlc_last_error());
  mlc_model_close(model);
  fflush(stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options opts = parseArgs(argc, argv);

  mlc_model *model = mlc_model_open(opts.modelPath.c_str());
  if (!model)
    fatal(mlc_last_error());
  if (mlc_model_set_num_threads(model, int32_t(opts.threads)) != MLC_OK)
    fatal(mlc_last_error());
  std::vector<Slot> inputSlots = describe(model, true);
  std::vector<Slot> outputSlots = describe(model, false);

  if (opts.info) {
    printf("model: %s\n", opts.modelPath.c_str());
    printf("device: %s\n", mlc_model_device(model));
    printf("inputs:\n");
    for (const Slot &s : inputSlots)
      printf("  %s: %s\n", s.name.c_str(),
             typeString(s.dtype, s.shape).c_str());
    printf("outputs:\n");
    for (const Slot &s : outputSlots)
      printf("  %s: %s\n", s.name.c_str(),
             typeString(s.dtype, s.shape).c_str());
    printf("workspace_bytes: %" PRIu64 "\n", mlc_model_workspace_size(model));
    if (mlc_model_is_trainable(model) == 1) {
      printf("train inputs:\n");
      for (const Slot &s : describeTrainInputs(model))
        printf("  %s: %s\n", s.name.c_str(),
               typeString(s.dtype, s.shape).c_str());
      printf("variables:\n");
      static const char *const kKinds[] = {"?", "param", "buffer", "state"};
      for (int32_t i = 0, e = mlc_model_num_variables(model); i < e; ++i) {
        mlc_tensor_info info;
        mlc_variable_kind kind;
        if (mlc_model_variable_info(model, i, &info, &kind) != MLC_OK)
          fatal(mlc_last_error());
        printf("  %s %s: %s\n", kKinds[kind <= 3 ? kind : 0], info.name,
               typeString(info.dtype, std::vector<int64_t>(
                                          info.shape, info.shape + info.rank))
                   .c_str());
      }
    }
    mlc_model_close(model);
    return 0;
  }

  if ((!opts.trainX.empty() || !opts.loadWeights.empty() ||
       !opts.saveWeights.empty()) &&
      mlc_model_is_trainable(model) != 1)
    fatal("'" + opts.modelPath +
          "' is not a trainable model (compile it "
          "with mlc-compile --train); " +
          (!opts.trainX.empty()        ? "--train"
           : !opts.loadWeights.empty() ? "--load-weights"
                                       : "--save-weights") +
          " needs one");
  if (!opts.loadWeights.empty() &&
      mlc_model_load_safetensors(model, opts.loadWeights.c_str()) != MLC_OK)
    fatal(mlc_last_error());
  // --profile: a model without a kernel table fails before any run.
  if (opts.profile) {
    enableProfiling(model);
    mlc_model_set_profiling(model, 0); // on for the timed runs only
  }
  if (!opts.trainX.empty())
    return runTraining(opts, model);

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
  if (!opts.outputDir.empty())
    makeDirectory(opts.outputDir);

  // Run, from opts.concurrent threads when asked.
  int64_t warmup = opts.bench ? opts.warmup : 0;
  int64_t runs = opts.bench ? opts.bench : 1;
  std::vector<Worker> workers(size_t(opts.concurrent));
  for (Worker &w : workers)
    for (const Slot &s : outputSlots)
      w.outputs.emplace_back(s.sizeBytes);
  std::atomic<int64_t> ready{0};
  if (opts.concurrent == 1) {
    runWorker(model, inputs, outputSlots, workers[0], warmup, runs, ready, 1,
              opts.profile ? model : nullptr);
  } else {
    std::vector<std::thread> threads;
    for (Worker &w : workers)
      threads.emplace_back(runWorker, model, std::cref(inputs),
                           std::cref(outputSlots), std::ref(w), warmup, runs,
                           std::ref(ready), opts.concurrent, nullptr);
    for (std::thread &t : threads)
      t.join();
  }
  for (size_t t = 0; t < workers.size(); ++t)
    if (!workers[t].error.empty())
      fatal(opts.concurrent > 1 ? "run failed in thread " + std::to_string(t) +
                                      ": " + workers[t].error
                                : "run failed: " + workers[t].error);
  for (size_t t = 1; t < workers.size(); ++t)
    for (size_t o = 0; o < outputSlots.size(); ++o)
      if (memcmp(workers[t].outputs[o].data(), workers[0].outputs[o].data(),
                 outputSlots[o].sizeBytes) != 0)
        fatal("output '" + outputSlots[o].name + "' of thread " +
              std::to_string(t) +
              " differs from thread 0: the model is not deterministic or "
              "not thread-safe");
  const std::vector<Buffer> &results = workers[0].outputs;

  bool ok = true;
  if (opts.print ||
      (opts.outputDir.empty() && opts.expects.empty() && opts.bench == 0))
    for (size_t o = 0; o < outputSlots.size(); ++o)
      printOutput(outputSlots[o], results[o].data());
  if (!opts.outputDir.empty()) {
    for (size_t o = 0; o < outputSlots.size(); ++o) {
      std::string error;
      const Slot &slot = outputSlots[o];
      std::string file = outputFileName(opts.outputDir, slot.name);
      bool written;
      if (slot.dtype == MLC_BF16) { // as f4: every bf16 value is an f32
        std::vector<float> f32(slot.numElements);
        for (uint64_t i = 0; i < slot.numElements; ++i)
          f32[i] = float(npy::loadFloat(MLC_BF16, results[o].data(), i));
        written = npy::writeFile(file, MLC_F32, slot.shape, f32.data(),
                                 f32.size() * 4, error);
      } else {
        written = npy::writeFile(file, slot.dtype, slot.shape,
                                 results[o].data(), results[o].size(), error);
      }
      if (!written)
        fatal(error);
    }
  }
  for (size_t o = 0; o < outputSlots.size(); ++o)
    if (!expectFiles[o].empty())
      ok &= compare(outputSlots[o], results[o].data(), expected[o],
                    expectFiles[o], opts.rtol, opts.atol);
  if (opts.bench) {
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
    double median =
        n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    printf("runs=%zu concurrent=%" PRId64 " threads=%d warmup=%" PRId64 "\n", n,
           opts.concurrent, int(mlc_model_num_threads(model)), warmup);
    printf("median_ms=%.6f min_ms=%.6f\n", median, times.front());
    if (opts.profile) {
      mlc_model_set_profiling(model, 0);
      double sum = 0;
      for (double t : times)
        sum += t;
      printProfile(model, opts, "run", int64_t(n), sum / double(n));
    }
  }
  if (!opts.saveWeights.empty() &&
      mlc_model_save_safetensors(model, opts.saveWeights.c_str(), 0) != MLC_OK)
    fatal(mlc_last_error());
  mlc_model_close(model);
  fflush(stdout);
  return ok ? 0 : 1;
}
