//===- Common.h - what the parts of mlc-run share ---------------*- C++ -*-===//
//
// The error exit, model tensors (declaration plus buffer) over the runtime C
// API, random inputs, binding -i/--expect files to tensors, and switching
// profiling on and reporting it. Errors here exit: mlc-run's contract is
// "mlc-run: error: ..." on stderr and status 1 for every failure.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TOOLS_MLC_RUN_COMMON_H
#define MLC_TOOLS_MLC_RUN_COMMON_H

#include "Npy.h"
#include "mlc/runtime.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace mlc::run {

/// Prints "mlc-run: error: <message>" and exits with status 1.
[[noreturn]] void fatal(const std::string &message);

/// A zero-initialized, 64-byte aligned byte buffer (what the model ABI
/// prefers for tensor data).
class Buffer {
public:
  explicit Buffer(size_t size);
  uint8_t *data() const { return static_cast<uint8_t *>(storage.get()); }
  size_t size() const { return bytes; }

private:
  struct FreeDeleter {
    void operator()(void *p) const { free(p); }
  };
  std::unique_ptr<void, FreeDeleter> storage;
  size_t bytes;
};

/// A model input, output or train input, as declared by the model.
struct Slot {
  std::string name;
  mlc_dtype dtype;
  std::vector<int64_t> shape;
  uint64_t numElements;
  uint64_t sizeBytes;
};

/// The model's inputs (`inputs`) or outputs.
std::vector<Slot> describe(const mlc_model *model, bool inputs);
/// A trainable model's train step inputs.
std::vector<Slot> describeTrainInputs(const mlc_model *model);
/// A tensor of the slot's type over `data`.
mlc_tensor makeTensor(const Slot &slot, void *data);

/// SplitMix64: tiny, fast, and good enough for test data and shuffling.
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

/// Random values for input `inputIndex`: floats uniform in [-1,1), integers
/// in [0,10), bools 0/1.
void fillRandom(const Slot &slot, uint8_t *data, uint64_t seed,
                size_t inputIndex);

/// Resolves "[NAME=]FILE" arguments of `option` against `slots` (inputs or
/// outputs, `kind`): one file path per slot ("" where none was given).
std::vector<std::string> bindFiles(const std::vector<std::string> &args,
                                   const std::vector<Slot> &slots,
                                   const char *kind, const char *option);

/// Reads a tensor file (.npy or .pb) for `slot`, checking dtype and shape.
npy::Array readFor(const Slot &slot, const std::string &path, const char *kind);

/// Switches the runtime's kernel profiling on (fails for a model without a
/// kernel table).
void enableProfiling(mlc_model *model);
/// Prints the --profile table of `entry` ("run" or "train") over `runs`
/// calls, and writes it to `jsonPath` when not empty.
void printProfile(const mlc_model *model, const std::string &modelPath,
                  const std::string &jsonPath, const char *entry, int64_t runs,
                  double wallMsPerRun);

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_COMMON_H
