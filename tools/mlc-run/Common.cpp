//===- Common.cpp - what the parts of mlc-run share -----------------------===//

#include "Common.h"
#include "Profile.h"
#include "TensorFile.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace mlc::run {

void fatal(const std::string &message) {
  fprintf(stderr, "mlc-run: error: %s\n", message.c_str());
  exit(1);
}

Buffer::Buffer(size_t size) : bytes(size) {
  void *p = nullptr;
  if (posix_memalign(&p, 64, std::max<size_t>(size, 1)) != 0)
    fatal("out of memory allocating " + std::to_string(size) + " bytes");
  memset(p, 0, std::max<size_t>(size, 1));
  storage.reset(p);
}

static Slot slotFromInfo(const mlc_tensor_info &info) {
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

mlc_tensor makeTensor(const Slot &slot, void *data) {
  mlc_tensor t;
  t.data = data;
  t.dtype = slot.dtype;
  t.rank = int32_t(slot.shape.size());
  t.shape = slot.shape.empty() ? nullptr : slot.shape.data();
  return t;
}

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

npy::Array readFor(const Slot &slot, const std::string &path,
                   const char *kind) {
  npy::Array array;
  std::string error;
  if (!tensorio::readTensorFor(path, std::string(kind) + " '" + slot.name + "'",
                               slot.dtype, slot.shape, array, error))
    fatal(error);
  return array;
}

void enableProfiling(mlc_model *model) {
  if (mlc_model_set_profiling(model, 1) != MLC_OK)
    fatal(mlc_last_error());
}

void printProfile(const mlc_model *model, const std::string &modelPath,
                  const std::string &jsonPath, const char *entry, int64_t runs,
                  double wallMsPerRun) {
  ProfileReport report;
  report.model = modelPath;
  report.entry = entry;
  report.runs = runs;
  report.threads = mlc_model_num_threads(model);
  report.wallMsPerRun = wallMsPerRun;
  std::string error;
  if (!reportProfile(model, report, jsonPath, error))
    fatal(error);
}

} // namespace mlc::run
