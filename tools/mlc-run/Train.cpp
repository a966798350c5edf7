//===- Train.cpp - mlc-run --train: the training loop ---------------------===//
//
// Feeds shuffled batches of .npy samples to a trainable model's train step,
// one line per epoch, then optionally evaluates the inference entry on the
// training and a test set. Samples come whole from the files (all in
// memory): the data sets mlc-run trains on are small.
//
//===----------------------------------------------------------------------===//

#include "Train.h"
#include "TensorFile.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace mlc::run {

using tensorio::shapeString;
using tensorio::typeString;

namespace {

bool isIntDType(mlc_dtype dtype) {
  return dtype == MLC_I8 || dtype == MLC_I16 || dtype == MLC_I32 ||
         dtype == MLC_I64 || dtype == MLC_U8 || dtype == MLC_U16 ||
         dtype == MLC_U32 || dtype == MLC_U64;
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

} // namespace

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
    printProfile(model, opts.modelPath, opts.profileJson, "train", totalSteps,
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

} // namespace mlc::run
