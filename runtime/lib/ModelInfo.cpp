//===- ModelInfo.cpp - a model's inputs, outputs and settings -------------===//
//
// Callers see only the inputs they pass: a trainable model's variable
// inputs are the runtime's and are left out of every count and index.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "Model.h"
#include "Signature.h"
#include "TensorChecks.h"
#include "ThreadPool.h"
#include "mlc/runtime.h"

#include <string.h>

using namespace mlc::rt;

//===----------------------------------------------------------------------===//
// Introspection
//===----------------------------------------------------------------------===//

int32_t mlc_model_num_inputs(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return model->sig.numInputs - model->sig.numVariableInputs;
}

int32_t mlc_model_num_outputs(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return model->sig.numOutputs;
}

namespace {
mlc_status getInfo(const mlc_model *model, bool input, int32_t index,
                   mlc_tensor_info *info) {
  const char *kind = input ? "input" : "output";
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (!info)
    return setError(MLC_ERR_INVALID_ARGUMENT, "%s info pointer is NULL", kind);
  const Signature &sig = model->sig;
  int32_t first = input ? sig.numVariableInputs : sig.numInputs;
  int32_t count = input ? sig.numInputs - first : sig.numOutputs;
  if (index < 0 || index >= count)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "%s index %d out of range (the model has %d %ss)", kind,
                    int(index), int(count), kind);
  fillInfo(sig.tensors[first + index], info);
  return MLC_OK;
}

int32_t findTensor(const mlc_model *model, bool input, const char *name) {
  const char *kind = input ? "input" : "output";
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  if (!name) {
    setError(MLC_ERR_INVALID_ARGUMENT, "%s name is NULL", kind);
    return -1;
  }
  const Signature &sig = model->sig;
  int32_t first = input ? sig.numVariableInputs : sig.numInputs;
  int32_t count = input ? sig.numInputs - first : sig.numOutputs;
  for (int32_t i = 0; i < count; ++i)
    if (strcmp(model->sig.tensors[first + i].name, name) == 0)
      return i;
  setError(MLC_ERR_INVALID_ARGUMENT, "the model has no %s named '%s'", kind,
           name);
  return -1;
}
} // namespace

mlc_status mlc_model_input_info(const mlc_model *model, int32_t index,
                                mlc_tensor_info *info) {
  return getInfo(model, true, index, info);
}

mlc_status mlc_model_output_info(const mlc_model *model, int32_t index,
                                 mlc_tensor_info *info) {
  return getInfo(model, false, index, info);
}

int32_t mlc_model_find_input(const mlc_model *model, const char *name) {
  return findTensor(model, true, name);
}

int32_t mlc_model_find_output(const mlc_model *model, const char *name) {
  return findTensor(model, false, name);
}

uint64_t mlc_model_workspace_size(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return 0;
  }
  return model->workspaceBytes;
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

mlc_status mlc_model_set_num_threads(mlc_model *model, int32_t n) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (n < 0)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "invalid number of threads %d (expected >= 1, or 0 for "
                    "one per CPU the process may run on)",
                    int(n));
  __atomic_store_n(&model->numThreads, n, __ATOMIC_RELAXED);
  return MLC_OK;
}

int32_t mlc_model_num_threads(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  // Without the setter the model.so's runtime predates the thread pool, so
  // its kernels have no parallel loops.
  if (!model->setNumThreads)
    return 1;
  return effectiveNumThreads(
      __atomic_load_n(&model->numThreads, __ATOMIC_RELAXED));
}
