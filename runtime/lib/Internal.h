//===- Internal.h - mlc runtime internals -----------------------*- C++ -*-===//
//
// Declarations shared by the runtime's translation units. Everything here has
// hidden visibility (the runtime is built with -fvisibility=hidden), so it
// never clashes with another runtime copy inside another model.so. The runtime
// avoids libstdc++ entirely (no new/delete, no std::) because it is linked into
// every model.so, which is only linked against libc, libm, libdl and
// libpthread.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_INTERNAL_H
#define MLC_RUNTIME_INTERNAL_H

#include "mlc/runtime.h"

#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// Limits that keep every size computation far from overflow.
constexpr int32_t kMaxRank = 64;
constexpr int32_t kMaxTensors = 1 << 20;
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 62;

/// One input or output as declared by the model's signature.
struct TensorDesc {
  char *name;
  mlc_dtype dtype;
  int32_t rank;
  int64_t *shape; // NULL when rank == 0
  uint64_t numElements;
  uint64_t sizeBytes;
};

/// The parsed signature: inputs first, then outputs.
struct Signature {
  int32_t numInputs;
  int32_t numOutputs;
  TensorDesc *tensors;
};

/// Parses the signature text described in mlc/model_abi.h into `sig` (which
/// must be zero-initialized). On failure, writes a message (without prefix)
/// into `err` and returns false; `sig` must still be released with
/// freeSignature.
bool parseSignature(const char *text, Signature *sig, char *err,
                    size_t errSize);
void freeSignature(Signature *sig);

/// Known CPU feature names (see model_abi.h); index i is bit i of a mask.
int32_t cpuFeatureCount();
const char *cpuFeatureName(int32_t index);
/// Bit mask of the known features this CPU supports.
uint32_t hostCpuFeatureMask();
/// Checks a comma-separated feature list against `supportedMask`. On
/// failure, writes a message into `err` and returns the status
/// (MLC_ERR_UNSUPPORTED for missing or unknown features).
mlc_status checkCpuFeatures(const char *features, uint32_t supportedMask,
                            char *err, size_t errSize);

/// Sets this thread's last error; returns `status` for convenience.
mlc_status setError(mlc_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Appends "[d0,d1,...]" to buf (NUL-terminated, truncated to size).
void formatShape(char *buf, size_t size, const int64_t *shape, int32_t rank);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_INTERNAL_H
