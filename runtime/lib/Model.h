//===- Model.h - a loaded model ---------------------------------*- C++ -*-===//
//
// The runtime's side of an mlc_model: the dlopen'ed model.so and its
// inference function. Training state lives behind `training`
// (TrainingState.h) so plain models carry none of it. Everything in the
// runtime has hidden visibility (-fvisibility=hidden), so it never clashes
// with another runtime copy inside another model.so.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_MODEL_H
#define MLC_RUNTIME_MODEL_H

#include "Profile.h"
#include "Signature.h"
#include "Workspace.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <stdint.h>

namespace mlc {
namespace rt {
struct TrainingState;
} // namespace rt
} // namespace mlc

struct mlc_model {
  void *handle;
  char *path;
  mlc_model_entry_fn entry;
  uint64_t workspaceBytes;
  mlc::rt::Signature sig; // inference; its variable inputs come from us
  // The model.so's thread-count setter (NULL for models built before it)
  // and mlc_model_set_num_threads's value (0: default), atomic: runs on
  // other threads read it.
  mlc_abi_set_num_threads_fn setNumThreads;
  int32_t numThreads;
  // CUDA models only (NULL for CPU models): runs through the model's runtime
  // copy, which owns the context, kernels and device memory (Cuda.cpp).
  mlc_abi_cuda_run_fn cudaRun;
  // Trainable models only (NULL otherwise); set as soon as the model.so is
  // known to be trainable, before the rest of training is set up.
  mlc::rt::TrainingState *training;
  // Kernel tables and counters (Profile.cpp).
  mlc::rt::Profile profile;
  // mutable: runs take workspaces from a const model.
  mutable mlc::rt::WorkspaceCache workspaces;
};

#endif // MLC_RUNTIME_MODEL_H
