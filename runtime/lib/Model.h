//===- Model.h - a loaded model ---------------------------------*- C++ -*-===//
//
// The runtime's side of an mlc_model: the dlopen'ed model.so and its
// inference function, and a trainable model's variables. Everything in the
// runtime has hidden visibility (-fvisibility=hidden), so it never clashes
// with another runtime copy inside another model.so.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_MODEL_H
#define MLC_RUNTIME_MODEL_H

#include "Profile.h"
#include "Signature.h"
#include "TrainingState.h"
#include "Workspace.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <pthread.h>
#include <stdint.h>

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

  // Trainable models only; zero otherwise.
  bool trainable;
  mlc::rt::Signature trainSig, initSig;
  mlc_model_entry_fn trainEntry, initEntry;
  uint64_t trainWorkspaceBytes, initWorkspaceBytes;
  void *trainWorkspace; // kept across steps: steps are exclusive
  int32_t numVariables;
  mlc::rt::Variable *variables;
  int32_t *inferVariables; // variable index of each variable input of sig
  int current;             // which copy of every variable is current
  bool lockReady;
  // mutable: readers (runs) lock a const model.
  mutable pthread_rwlock_t lock;
  // Kernel tables and counters (Profile.cpp).
  mlc::rt::Profile profile;
  // mutable: runs take workspaces from a const model.
  mutable mlc::rt::WorkspaceCache workspaces;
};

#endif // MLC_RUNTIME_MODEL_H
