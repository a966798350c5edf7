//===- TrainingState.h - a trainable model's variables ----------*- C++ -*-===//
//
// What a trainable model adds to mlc_model (its `training`), and the lock
// that orders runs against train steps (Training.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_TRAININGSTATE_H
#define MLC_RUNTIME_TRAININGSTATE_H

#include "Signature.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <pthread.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// One runtime-owned variable of a trainable model. Two copies: a step reads
/// the current one and writes the other, then the model flips `current`.
struct Variable {
  const TensorDesc *desc; // its line in the train signature
  mlc_variable_kind kind;
  void *copies[2];
};

/// The train and init functions and the variables they share with runs.
struct TrainingState {
  Signature trainSig, initSig;
  mlc_model_entry_fn trainEntry, initEntry;
  uint64_t trainWorkspaceBytes, initWorkspaceBytes;
  void *trainWorkspace; // kept across steps: steps are exclusive
  int32_t numVariables;
  Variable *variables;
  int32_t *inferVariables; // variable index of each variable input of sig
  int current;             // which copy of every variable is current
  bool lockReady;
  pthread_rwlock_t lock; // runs read-lock it, steps and writes write-lock
};

/// Marks `model` trainable: gives it a zeroed TrainingState. Sets the error.
mlc_status createTraining(mlc_model *model);
/// Load-time setup of a trainable model (called by mlc_model_open once the
/// inference part is loaded): looks up the train/init families, cross-checks
/// the signatures, allocates the variables and runs init. Sets the error.
mlc_status setUpTraining(mlc_model *model);
/// Frees the training state, however far its setup got (none is fine).
void destroyTraining(mlc_model *model);

/// Sets the error and returns it unless `model` is a non-NULL trainable
/// model.
mlc_status requireTrainable(const mlc_model *model);

/// Fills buffers[0, sig.numVariableInputs) of an inference call with the
/// current copies of the variables it reads. Caller holds a ReadLock.
void inferenceVariables(const mlc_model *model, void **buffers);

/// Shared/exclusive access to a trainable model's variables; no-ops for
/// plain models, which are immutable.
class ModelLock {
public:
  ~ModelLock();
  ModelLock(const ModelLock &) = delete;
  ModelLock &operator=(const ModelLock &) = delete;
  bool ok() const { return locked || !lock; }

protected:
  ModelLock(const mlc_model *model, bool exclusive);

private:
  pthread_rwlock_t *lock = nullptr;
  bool locked = false;
};
class ReadLock : public ModelLock {
public:
  explicit ReadLock(const mlc_model *model) : ModelLock(model, false) {}
};
class WriteLock : public ModelLock {
public:
  explicit WriteLock(mlc_model *model) : ModelLock(model, true) {}
};

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_TRAININGSTATE_H
