//===- mlc-run.cpp - run, check and benchmark a compiled model ------------===//
//
// mlc-run MODEL.so [options]: feeds .npy (or seeded random) inputs to a model
// through the runtime C API, then prints, saves, checks and/or times the
// outputs; with --train, trains a trainable model on .npy data instead.
// Every failure prints "mlc-run: error: ..." and exits with 1.
//
// This file is the command line and the dispatch; the parts live beside it:
// Infer (a run: inputs in, outputs out) with Compare (--print, --expect) and
// Bench (running from threads, --bench), Train (--train), Profile
// (--profile), TensorFile and Npy (tensor files, a library the unit tests
// link) and Common (what they share).
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Infer.h"
#include "Options.h"
#include "TensorFile.h"
#include "Train.h"
#include "mlc/runtime.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlc;
using namespace mlc::run;
using tensorio::typeString;

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

[[noreturn]] void usageError(const std::string &message) {
  fprintf(stderr, "mlc-run: error: %s\n(run 'mlc-run --help' for usage)\n",
          message.c_str());
  exit(1);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

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

/// --info: the model's signature, and a trainable model's variables.
void printInfo(const Options &opts, mlc_model *model,
               const std::vector<Slot> &inputSlots,
               const std::vector<Slot> &outputSlots) {
  printf("model: %s\n", opts.modelPath.c_str());
  printf("device: %s\n", mlc_model_device(model));
  printf("inputs:\n");
  for (const Slot &s : inputSlots)
    printf("  %s: %s\n", s.name.c_str(), typeString(s.dtype, s.shape).c_str());
  printf("outputs:\n");
  for (const Slot &s : outputSlots)
    printf("  %s: %s\n", s.name.c_str(), typeString(s.dtype, s.shape).c_str());
  printf("workspace_bytes: %" PRIu64 "\n", mlc_model_workspace_size(model));
  if (mlc_model_is_trainable(model) != 1)
    return;
  printf("train inputs:\n");
  for (const Slot &s : describeTrainInputs(model))
    printf("  %s: %s\n", s.name.c_str(), typeString(s.dtype, s.shape).c_str());
  printf("variables:\n");
  static const char *const kKinds[] = {"?", "param", "buffer", "state"};
  for (int32_t i = 0, e = mlc_model_num_variables(model); i < e; ++i) {
    mlc_tensor_info info;
    mlc_variable_kind kind;
    if (mlc_model_variable_info(model, i, &info, &kind) != MLC_OK)
      fatal(mlc_last_error());
    printf("  %s %s: %s\n", kKinds[kind <= 3 ? kind : 0], info.name,
           typeString(info.dtype,
                      std::vector<int64_t>(info.shape, info.shape + info.rank))
               .c_str());
  }
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
    printInfo(opts, model, inputSlots, outputSlots);
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

  return runInference(opts, model, inputSlots, outputSlots);
}
