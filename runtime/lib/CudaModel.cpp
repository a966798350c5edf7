//===- CudaModel.cpp - runs of a CUDA model -------------------------------===//
//
// The caller's side of a CUDA model: the buffers go to mlc_abi_cuda_run in
// the model's own runtime copy (Cuda.cpp), which owns the context, kernels
// and device memory.
//
//===----------------------------------------------------------------------===//

#include "CudaModel.h"
#include "Error.h"
#include "Model.h"
#include "Signature.h"
#include "TensorChecks.h"
#include "mlc/runtime.h"

#include <stdlib.h>

using namespace mlc::rt;

mlc_status mlc::rt::runOnCuda(const mlc_model *model, const mlc_tensor *inputs,
                              const mlc_tensor *outputs, bool onDevice) {
  const Signature &sig = model->sig;
  int32_t n = sig.numInputs + sig.numOutputs;
  void *stackBuffers[32];
  uint64_t stackSizes[32];
  void **buffers = stackBuffers;
  uint64_t *sizes = stackSizes;
  if (n > 32) {
    buffers = static_cast<void **>(malloc(size_t(n) * sizeof(void *)));
    sizes = static_cast<uint64_t *>(malloc(size_t(n) * sizeof(uint64_t)));
  }
  mlc_status status = MLC_OK;
  if (!buffers || !sizes) {
    status = setError(MLC_ERR_OUT_OF_MEMORY, "out of memory");
  } else {
    for (int32_t i = 0; i < n; ++i) {
      buffers[i] =
          i < sig.numInputs ? inputs[i].data : outputs[i - sig.numInputs].data;
      sizes[i] = sig.tensors[i].sizeBytes;
    }
    char err[1024] = "";
    if (int32_t s = model->cudaRun(model->entry, buffers, sizes, sig.numInputs,
                                   sig.numOutputs, model->workspaceBytes,
                                   onDevice, err, sizeof(err)))
      status = setError(mlc_status(s), "%s", err);
  }
  if (buffers != stackBuffers)
    free(buffers);
  if (sizes != stackSizes)
    free(sizes);
  return status;
}

mlc_status mlc_model_run_device(const mlc_model *model,
                                const mlc_tensor *inputs, int32_t numInputs,
                                const mlc_tensor *outputs, int32_t numOutputs) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (!model->cudaRun)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "'%s' is not a CUDA model: pass host memory to "
                    "mlc_model_run",
                    model->path);
  if (mlc_status s =
          checkRunTensors(model->sig, inputs, numInputs, outputs, numOutputs))
    return s;
  return runOnCuda(model, inputs, outputs, /*onDevice=*/true);
}

const char *mlc_model_device(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return nullptr;
  }
  return model->cudaRun ? "cuda" : "cpu";
}
