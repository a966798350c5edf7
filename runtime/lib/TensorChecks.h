//===- TensorChecks.h - callers' tensors against a signature ----*- C++ -*-===//
//
// Caller-provided tensors are checked before any generated code sees them:
// the kernels trust their shapes, dtypes and non-aliasing completely.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_TENSORCHECKS_H
#define MLC_RUNTIME_TENSORCHECKS_H

#include "Signature.h"
#include "mlc/runtime.h"

#include <stdint.h>

namespace mlc {
namespace rt {

/// Checks a caller's tensor against its declaration; `kind` and `index` name
/// it in the message ("input 0 ('x'): ...").
mlc_status checkTensor(const TensorDesc &want, const mlc_tensor &got,
                       const char *kind, int32_t index);

/// Checks a run's tensors against `sig` (mlc_model_run's contract): counts,
/// each tensor, and no output overlapping an input or another output. The
/// variable inputs of a trainable model are not the caller's to pass.
mlc_status checkRunTensors(const Signature &sig, const mlc_tensor *inputs,
                           int32_t numInputs, const mlc_tensor *outputs,
                           int32_t numOutputs);

/// Whether two tensors' sizes and dtypes agree (names aside).
bool sameType(const TensorDesc &a, const TensorDesc &b);

/// Copies a declared tensor's name, dtype and shape into `info`.
void fillInfo(const TensorDesc &t, mlc_tensor_info *info);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_TENSORCHECKS_H
