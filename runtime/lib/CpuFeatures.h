//===- CpuFeatures.h - the CPU features a model needs -----------*- C++ -*-===//

#ifndef MLC_RUNTIME_CPUFEATURES_H
#define MLC_RUNTIME_CPUFEATURES_H

#include "mlc/runtime.h"

#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

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

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_CPUFEATURES_H
