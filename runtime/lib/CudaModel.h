//===- CudaModel.h - runs of a CUDA model -----------------------*- C++ -*-===//

#ifndef MLC_RUNTIME_CUDAMODEL_H
#define MLC_RUNTIME_CUDAMODEL_H

#include "mlc/runtime.h"

namespace mlc {
namespace rt {

/// Runs a CUDA model (model->cudaRun set) on checked tensors, through the
/// model's runtime copy; `onDevice`: the buffers are device memory. Sets the
/// error.
mlc_status runOnCuda(const mlc_model *model, const mlc_tensor *inputs,
                     const mlc_tensor *outputs, bool onDevice);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_CUDAMODEL_H
