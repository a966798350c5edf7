//===- Profile.h - per-kernel times of a model's calls ----------*- C++ -*-===//
//
// A model's kernel tables and counters, and CallScope, which every call
// into the model goes through (Profile.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_PROFILE_H
#define MLC_RUNTIME_PROFILE_H

#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// The function families of a model (model_abi.h), in kernel-table order.
enum class Family : uint8_t { Run, Train, Init };
constexpr int kNumFamilies = 3;

/// One kernel of a model's kernel tables.
struct KernelDesc {
  char *name;
  char *ops;
  Family family;
  uint64_t flops;
};

/// Profiling state of a model: the kernels of all families (run's, then
/// train's, then init's) and their counters.
struct Profile {
  bool hasTable; // the model.so exports at least one kernel table
  int32_t numKernels;
  KernelDesc *kernels;
  int32_t first[kNumFamilies], count[kNumFamilies];
  // Per kernel: total nanoseconds, calls. Updated atomically by the
  // model's runtime copy during profiled calls.
  uint64_t *counters;
  mlc_abi_set_profile_fn setProfile;
  int32_t on; // atomic: mlc_model_set_profiling
};

/// Parses a kernel table (model_abi.h: "<flops> <ops> <name>\n" lines) into
/// `out`, which has room for one entry per line. On failure, writes a
/// message into `err` and returns false; strings of entries already parsed
/// are the caller's to free.
bool parseKernelTable(const char *text, Family family, KernelDesc *out,
                      char *err, size_t errSize);

/// Reads the model's kernel tables (none is fine). Sets the error.
mlc_status loadProfile(mlc_model *model);
void freeProfile(mlc_model *model);

/// Brackets one call into the model: passes the thread-count setting to
/// the model's runtime copy for the calling thread and, while profiling is
/// on, the counters of `family`'s kernels (cleared again at the end).
class CallScope {
public:
  CallScope(const mlc_model *model, Family family);
  ~CallScope();
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

private:
  const mlc_model *model;
  bool profiled;
};

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_PROFILE_H
