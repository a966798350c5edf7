//===- ModelRun.cpp - mlc_model_run ---------------------------------------===//
//
// Runs a model with full validation of the caller's tensors. A plain model
// is immutable, so runs need no locking; each run has its own workspace,
// taken from a small cache of finished runs' workspaces (a short mutex) or
// allocated. A trainable model's runs share its variables with training
// (Training.cpp), so they hold its lock for reading.
//
//===----------------------------------------------------------------------===//

#include "CudaModel.h"
#include "Error.h"
#include "Model.h"
#include "Profile.h"
#include "Signature.h"
#include "TensorChecks.h"
#include "TrainingState.h"
#include "Workspace.h"
#include "mlc/runtime.h"

#include <stdlib.h>

using namespace mlc::rt;

mlc_status mlc_model_run(const mlc_model *model, const mlc_tensor *inputs,
                         int32_t numInputs, const mlc_tensor *outputs,
                         int32_t numOutputs) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (mlc_status s =
          checkRunTensors(model->sig, inputs, numInputs, outputs, numOutputs))
    return s;
  if (model->cudaRun)
    return runOnCuda(model, inputs, outputs, /*onDevice=*/false);
  const Signature &sig = model->sig;
  const int32_t numVars = sig.numVariableInputs;

  void *workspace;
  if (mlc_status s =
          takeWorkspace(model->workspaces, model->workspaceBytes, &workspace))
    return s;

  // Small models (the common case) need no heap allocation for the buffers.
  void *stackBuffers[32];
  size_t numBuffers = size_t(sig.numInputs) + size_t(numOutputs);
  void **buffers = stackBuffers;
  if (numBuffers > sizeof(stackBuffers) / sizeof(stackBuffers[0])) {
    buffers = static_cast<void **>(malloc(numBuffers * sizeof(void *)));
    if (!buffers) {
      returnWorkspace(model->workspaces, workspace);
      return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  for (int32_t i = 0; i < numInputs; ++i)
    buffers[numVars + i] = inputs[i].data;
  for (int32_t i = 0; i < numOutputs; ++i)
    buffers[sig.numInputs + i] = outputs[i].data;

  {
    // Train steps, writes and loads replace variables: not during a run.
    ReadLock lock(model);
    if (!lock.ok()) {
      if (buffers != stackBuffers)
        free(buffers);
      returnWorkspace(model->workspaces, workspace);
      return setError(MLC_ERR_INTERNAL, "cannot lock the model");
    }
    if (numVars > 0)
      inferenceVariables(model, buffers);
    CallScope call(model, Family::Run);
    model->entry(buffers, workspace);
  }

  if (buffers != stackBuffers)
    free(buffers);
  returnWorkspace(model->workspaces, workspace);
  return MLC_OK;
}
