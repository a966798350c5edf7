//===- TensorChecks.cpp - callers' tensors against a signature ------------===//

#include "TensorChecks.h"
#include "Dtype.h"
#include "Error.h"

#include <string.h>

using namespace mlc::rt;

namespace {
/// A caller's dtype field as an int. C callers may store any value there, and
/// loading an out-of-range value as an mlc_dtype would be undefined in C++.
int rawDtype(const mlc_tensor &t) {
  static_assert(sizeof(t.dtype) == sizeof(int), "enum is int-sized");
  int value;
  memcpy(&value, &t.dtype, sizeof(value));
  return value;
}

bool overlaps(const void *a, uint64_t aSize, const void *b, uint64_t bSize) {
  if (aSize == 0 || bSize == 0)
    return false;
  uintptr_t a0 = uintptr_t(a), b0 = uintptr_t(b);
  return a0 < b0 + bSize && b0 < a0 + aSize;
}
} // namespace

mlc_status mlc::rt::checkTensor(const TensorDesc &want, const mlc_tensor &got,
                                const char *kind, int32_t index) {
  if (!got.data)
    return setError(MLC_ERR_INVALID_ARGUMENT, "%s %d ('%s'): data is NULL",
                    kind, int(index), want.name);
  if (rawDtype(got) != int(want.dtype)) {
    char gotName[32];
    formatDtype(gotName, sizeof(gotName), rawDtype(got));
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "%s %d ('%s'): expected dtype %s but got %s", kind,
                    int(index), want.name, mlc_dtype_name(want.dtype), gotName);
  }
  if (got.rank != want.rank)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "%s %d ('%s'): expected rank %d but got %d", kind,
                    int(index), want.name, int(want.rank), int(got.rank));
  if (got.rank > 0 && !got.shape)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "%s %d ('%s'): shape is NULL for rank %d", kind, int(index),
                    want.name, int(got.rank));
  for (int32_t d = 0; d < want.rank; ++d) {
    if (got.shape[d] == want.shape[d])
      continue;
    char wantShape[512] = "", gotShape[512] = "";
    formatShape(wantShape, sizeof(wantShape), want.shape, want.rank);
    formatShape(gotShape, sizeof(gotShape), got.shape, got.rank);
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "%s %d ('%s'): expected shape %s but got %s", kind,
                    int(index), want.name, wantShape, gotShape);
  }
  return MLC_OK;
}

mlc_status mlc::rt::checkRunTensors(const Signature &sig,
                                    const mlc_tensor *inputs, int32_t numInputs,
                                    const mlc_tensor *outputs,
                                    int32_t numOutputs) {
  // A trainable model's variable inputs come first and are ours to pass.
  const int32_t numVars = sig.numVariableInputs;
  const TensorDesc *inDescs = sig.tensors + numVars;
  const TensorDesc *outDescs = sig.tensors + sig.numInputs;
  if (numInputs != sig.numInputs - numVars)
    return setError(MLC_ERR_INVALID_ARGUMENT, "expected %d inputs but got %d",
                    int(sig.numInputs - numVars), int(numInputs));
  if (numOutputs != sig.numOutputs)
    return setError(MLC_ERR_INVALID_ARGUMENT, "expected %d outputs but got %d",
                    int(sig.numOutputs), int(numOutputs));
  if (numInputs > 0 && !inputs)
    return setError(MLC_ERR_INVALID_ARGUMENT, "inputs array is NULL");
  if (!outputs)
    return setError(MLC_ERR_INVALID_ARGUMENT, "outputs array is NULL");

  for (int32_t i = 0; i < numInputs; ++i)
    if (mlc_status s = checkTensor(inDescs[i], inputs[i], "input", i))
      return s;
  for (int32_t i = 0; i < numOutputs; ++i)
    if (mlc_status s = checkTensor(outDescs[i], outputs[i], "output", i))
      return s;

  // The generated code assumes outputs alias nothing it reads or writes.
  // (Variables are our own allocations, so callers cannot alias them.)
  for (int32_t i = 0; i < numOutputs; ++i) {
    const TensorDesc &out = outDescs[i];
    for (int32_t j = 0; j < numInputs; ++j)
      if (overlaps(outputs[i].data, out.sizeBytes, inputs[j].data,
                   inDescs[j].sizeBytes))
        return setError(MLC_ERR_INVALID_ARGUMENT,
                        "output %d ('%s') overlaps input %d ('%s')", int(i),
                        out.name, int(j), inDescs[j].name);
    for (int32_t j = 0; j < i; ++j)
      if (overlaps(outputs[i].data, out.sizeBytes, outputs[j].data,
                   outDescs[j].sizeBytes))
        return setError(MLC_ERR_INVALID_ARGUMENT,
                        "output %d ('%s') overlaps output %d ('%s')", int(i),
                        out.name, int(j), outDescs[j].name);
  }
  return MLC_OK;
}

bool mlc::rt::sameType(const TensorDesc &a, const TensorDesc &b) {
  if (a.dtype != b.dtype || a.rank != b.rank)
    return false;
  for (int32_t d = 0; d < a.rank; ++d)
    if (a.shape[d] != b.shape[d])
      return false;
  return true;
}

void mlc::rt::fillInfo(const TensorDesc &t, mlc_tensor_info *info) {
  info->name = t.name;
  info->dtype = t.dtype;
  info->rank = t.rank;
  info->shape = t.shape;
  info->num_elements = t.numElements;
  info->size_bytes = t.sizeBytes;
}
