//===- Training.cpp - trainable models: variables and train steps ---------===//
//
// A trainable model.so (mlc-compile --train) leaves its parameters, buffers
// and optimizer state to the runtime: mlc_model_open checks the train, init
// and inference signatures against each other, allocates two copies of every
// variable and fills one with the init entry. A train step reads the current
// copies and writes the updates into the others (the generated code never
// writes an input), then flips which copy is current; nothing is copied.
//
// Runs only read the variables, so they share the model's rwlock; steps,
// writes, loads and resets take it exclusively.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "Model.h"
#include "Profile.h"
#include "Signature.h"
#include "TensorChecks.h"
#include "TrainingState.h"
#include "Workspace.h"
#include "mlc/model_abi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace mlc::rt;

//===----------------------------------------------------------------------===//
// Locks
//===----------------------------------------------------------------------===//

ModelLock::ModelLock(const mlc_model *model, bool exclusive) {
  if (!model->training)
    return;
  lock = &model->training->lock;
  locked = (exclusive ? pthread_rwlock_wrlock(lock)
                      : pthread_rwlock_rdlock(lock)) == 0;
}

ModelLock::~ModelLock() {
  if (locked)
    pthread_rwlock_unlock(lock);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {

/// dlsym of "<prefix>_<suffix>"; reports a missing symbol.
void *lookupFamily(mlc_model *model, const char *prefix, const char *suffix) {
  char symbol[64];
  snprintf(symbol, sizeof(symbol), "%s_%s", prefix, suffix);
  dlerror();
  void *p = dlsym(model->handle, symbol);
  if (!p)
    setError(MLC_ERR_LOAD,
             "'%s' is a trainable model (it exports " MLC_TRAIN_PREFIX
             "_entry) but lacks symbol %s",
             model->path, symbol);
  return p;
}

mlc_variable_kind variableKind(LineKind kind) {
  return kind == LineKind::Param    ? MLC_VAR_PARAM
         : kind == LineKind::Buffer ? MLC_VAR_BUFFER
                                    : MLC_VAR_STATE;
}

void describeType(char *buf, size_t size, const TensorDesc &t) {
  snprintf(buf, size, "%s ", mlc_dtype_name(t.dtype));
  formatShape(buf, size, t.shape, t.rank);
}

/// Checks that sig's outputs from `first` on are one update per variable of
/// `train` (its first numVariableInputs inputs), in order and of the same
/// type.
bool checkUpdates(const Signature &sig, int32_t first, const Signature &train,
                  const char *sigName, char *err, size_t errSize) {
  int32_t numVars = train.numVariableInputs;
  int32_t numUpdates = sig.numInputs + sig.numOutputs - first;
  if (numUpdates != numVars) {
    snprintf(err, errSize,
             "%s has %d update lines but the model has %d variables (one "
             "update per variable, in variable order)",
             sigName, int(numUpdates), int(numVars));
    return false;
  }
  for (int32_t i = 0; i < numVars; ++i) {
    const TensorDesc &update = sig.tensors[first + i];
    const TensorDesc &var = train.tensors[i];
    if (update.kind != LineKind::Update) {
      snprintf(err, errSize,
               "%s: output '%s' is an '%s' line, expected "
               "update '%s'",
               sigName, update.name, lineKindName(update.kind), var.name);
      return false;
    }
    if (strcmp(update.name, var.name) != 0) {
      snprintf(err, errSize,
               "%s: update %d is '%s' but variable %d is '%s' (updates "
               "follow the variable order)",
               sigName, int(i), update.name, int(i), var.name);
      return false;
    }
    if (!sameType(update, var)) {
      char want[256] = "", got[256] = "";
      describeType(want, sizeof(want), var);
      describeType(got, sizeof(got), update);
      snprintf(err, errSize, "%s: update '%s' is %s but the variable is %s",
               sigName, update.name, got, want);
      return false;
    }
  }
  return true;
}

/// The cross-checks of model_abi.h between the three signatures.
bool checkSignatures(mlc_model *model, char *err, size_t errSize) {
  const Signature &train = model->training->trainSig;
  const Signature &init = model->training->initSig;
  const Signature &infer = model->sig;
  const char *kTrain = MLC_TRAIN_PREFIX "_signature";
  const char *kInit = MLC_INIT_PREFIX "_signature";
  const char *kInfer = MLC_SYM_SIGNATURE;
  int32_t numVars = train.numVariableInputs;
  if (numVars == 0) {
    snprintf(err, errSize,
             "%s declares no variables (param, buffer or state lines)", kTrain);
    return false;
  }

  // Train: variables, batch inputs; the loss, then the updates.
  const TensorDesc &loss = train.tensors[train.numInputs];
  if (loss.kind != LineKind::Out || loss.dtype != MLC_F32 || loss.rank != 0) {
    snprintf(err, errSize,
             "%s: the first output must be the loss, 'out f32 []', but '%s' "
             "is not",
             kTrain, loss.name);
    return false;
  }
  if (train.numOutputs > 1 &&
      train.tensors[train.numInputs + 1].kind == LineKind::Out) {
    snprintf(err, errSize,
             "%s: output '%s' is a second 'out' line (the loss must be the "
             "only one)",
             kTrain, train.tensors[train.numInputs + 1].name);
    return false;
  }
  if (!checkUpdates(train, train.numInputs + 1, train, kTrain, err, errSize))
    return false;

  // Init: no inputs, only the updates.
  if (init.numInputs != 0) {
    snprintf(err, errSize, "%s must have no inputs but declares '%s'", kInit,
             init.tensors[0].name);
    return false;
  }
  if (!checkUpdates(init, 0, train, kInit, err, errSize))
    return false;

  // Inference: a subset of the params and buffers, in variable order.
  int32_t next = 0;
  for (int32_t i = 0; i < infer.numVariableInputs; ++i) {
    const TensorDesc &t = infer.tensors[i];
    if (t.kind == LineKind::State) {
      snprintf(err, errSize,
               "%s reads optimizer state '%s' (inference may read only param "
               "and buffer variables)",
               kInfer, t.name);
      return false;
    }
    int32_t var = 0;
    while (var < numVars && strcmp(train.tensors[var].name, t.name) != 0)
      ++var;
    if (var == numVars) {
      snprintf(err, errSize, "%s: '%s' is not a variable of %s", kInfer, t.name,
               kTrain);
      return false;
    }
    if (var < next) {
      snprintf(err, errSize,
               "%s: variable '%s' is out of order (variables follow the order "
               "of %s)",
               kInfer, t.name, kTrain);
      return false;
    }
    const TensorDesc &declared = train.tensors[var];
    if (declared.kind != t.kind) {
      snprintf(err, errSize, "%s declares '%s' as %s but %s as %s", kInfer,
               t.name, lineKindName(t.kind), kTrain,
               lineKindName(declared.kind));
      return false;
    }
    if (!sameType(declared, t)) {
      char want[256] = "", got[256] = "";
      describeType(want, sizeof(want), declared);
      describeType(got, sizeof(got), t);
      snprintf(err, errSize, "%s: variable '%s' is %s but %s declares %s",
               kInfer, t.name, got, kTrain, want);
      return false;
    }
    model->training->inferVariables[i] = var;
    next = var + 1;
  }
  for (int32_t i = 0; i < infer.numOutputs; ++i) {
    const TensorDesc &t = infer.tensors[infer.numInputs + i];
    if (t.kind != LineKind::Out) {
      snprintf(err, errSize,
               "%s: output '%s' is an '%s' line (inference "
               "updates no variables)",
               kInfer, t.name, lineKindName(t.kind));
      return false;
    }
  }
  return true;
}

/// Runs the init entry into the current copies. Caller holds the write lock
/// (or is mlc_model_open).
mlc_status runInit(mlc_model *model) {
  TrainingState &t = *model->training;
  int32_t n = t.numVariables;
  void **buffers = static_cast<void **>(malloc(sizeof(void *) * size_t(n)));
  if (!buffers)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory");
  void *workspace;
  if (mlc_status s = allocateWorkspace(t.initWorkspaceBytes, &workspace)) {
    free(buffers);
    return s;
  }
  for (int32_t i = 0; i < n; ++i)
    buffers[i] = t.variables[i].copies[t.current];
  {
    CallScope call(model, Family::Init);
    t.initEntry(buffers, workspace);
  }
  free(workspace);
  free(buffers);
  return MLC_OK;
}

mlc_status checkVariableIndex(const mlc_model *model, int32_t index) {
  if (mlc_status s = requireTrainable(model))
    return s;
  if (index < 0 || index >= model->training->numVariables)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "variable index %d out of range (the model has %d "
                    "variables)",
                    int(index), int(model->training->numVariables));
  return MLC_OK;
}

mlc_status lockFailed() {
  return setError(MLC_ERR_INTERNAL, "cannot lock the model");
}

} // namespace

mlc_status mlc::rt::requireTrainable(const mlc_model *model) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (!model->training)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "'%s' is not a trainable model (compile it with "
                    "mlc-compile --train)",
                    model->path);
  return MLC_OK;
}

mlc_status mlc::rt::createTraining(mlc_model *model) {
  model->training =
      static_cast<TrainingState *>(calloc(1, sizeof(TrainingState)));
  if (!model->training)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'",
                    model->path);
  return MLC_OK;
}

mlc_status mlc::rt::setUpTraining(mlc_model *model) {
  TrainingState &t = *model->training;
  auto trainSignature = reinterpret_cast<mlc_model_signature_fn>(
      lookupFamily(model, MLC_TRAIN_PREFIX, "signature"));
  auto trainWorkspace = reinterpret_cast<mlc_model_workspace_bytes_fn>(
      trainSignature ? lookupFamily(model, MLC_TRAIN_PREFIX, "workspace_bytes")
                     : nullptr);
  t.trainEntry = reinterpret_cast<mlc_model_entry_fn>(
      trainWorkspace ? lookupFamily(model, MLC_TRAIN_PREFIX, "entry")
                     : nullptr);
  auto initSignature = reinterpret_cast<mlc_model_signature_fn>(
      t.trainEntry ? lookupFamily(model, MLC_INIT_PREFIX, "signature")
                   : nullptr);
  auto initWorkspace = reinterpret_cast<mlc_model_workspace_bytes_fn>(
      initSignature ? lookupFamily(model, MLC_INIT_PREFIX, "workspace_bytes")
                    : nullptr);
  t.initEntry = reinterpret_cast<mlc_model_entry_fn>(
      initWorkspace ? lookupFamily(model, MLC_INIT_PREFIX, "entry") : nullptr);
  if (!t.initEntry)
    return mlc_last_status();

  char err[1024];
  if (!parseSignature(trainSignature(), &t.trainSig, err, sizeof(err), true))
    return setError(MLC_ERR_LOAD, "'%s' has a malformed train signature: %s",
                    model->path, err);
  if (!parseSignature(initSignature(), &t.initSig, err, sizeof(err), true))
    return setError(MLC_ERR_LOAD, "'%s' has a malformed init signature: %s",
                    model->path, err);
  t.trainWorkspaceBytes = trainWorkspace();
  t.initWorkspaceBytes = initWorkspace();

  if (model->sig.numVariableInputs > 0) {
    t.inferVariables = static_cast<int32_t *>(
        malloc(sizeof(int32_t) * size_t(model->sig.numVariableInputs)));
    if (!t.inferVariables)
      return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'",
                      model->path);
  }
  if (!checkSignatures(model, err, sizeof(err)))
    return setError(MLC_ERR_LOAD, "'%s' is not a valid trainable model: %s",
                    model->path, err);

  int32_t n = t.trainSig.numVariableInputs;
  t.variables = static_cast<Variable *>(calloc(size_t(n), sizeof(Variable)));
  if (!t.variables)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'",
                    model->path);
  t.numVariables = n;
  for (int32_t i = 0; i < n; ++i) {
    Variable &v = t.variables[i];
    v.desc = &t.trainSig.tensors[i];
    v.kind = variableKind(v.desc->kind);
    // 64-byte aligned like the workspace, so generated code may assume it.
    uint64_t bytes = (v.desc->sizeBytes + 63) & ~uint64_t(63);
    if (bytes == 0)
      bytes = 64;
    for (void *&copy : v.copies) {
      if (posix_memalign(&copy, 64, size_t(bytes)) != 0) {
        copy = nullptr;
        return setError(MLC_ERR_OUT_OF_MEMORY,
                        "cannot allocate variable '%s' (%llu bytes) of '%s'",
                        v.desc->name, (unsigned long long)v.desc->sizeBytes,
                        model->path);
      }
      memset(copy, 0, size_t(bytes));
    }
  }

  // Prefer writers: a stream of concurrent runs must not starve training.
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr,
                                PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  int rc = pthread_rwlock_init(&t.lock, &attr);
  pthread_rwlockattr_destroy(&attr);
  if (rc != 0)
    return setError(MLC_ERR_INTERNAL, "cannot create the lock of '%s'",
                    model->path);
  t.lockReady = true;
  return runInit(model);
}

void mlc::rt::destroyTraining(mlc_model *model) {
  TrainingState *t = model->training;
  if (!t)
    return;
  if (t->variables) {
    for (int32_t i = 0; i < t->numVariables; ++i) {
      free(t->variables[i].copies[0]);
      free(t->variables[i].copies[1]);
    }
    free(t->variables);
  }
  if (t->lockReady)
    pthread_rwlock_destroy(&t->lock);
  free(t->inferVariables);
  free(t->trainWorkspace);
  freeSignature(&t->trainSig);
  freeSignature(&t->initSig);
  free(t);
  model->training = nullptr;
}

void mlc::rt::inferenceVariables(const mlc_model *model, void **buffers) {
  const TrainingState *t = model->training;
  for (int32_t i = 0; i < model->sig.numVariableInputs; ++i)
    buffers[i] = t->variables[t->inferVariables[i]].copies[t->current];
}

//===----------------------------------------------------------------------===//
// Introspection
//===----------------------------------------------------------------------===//

int32_t mlc_model_is_trainable(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return model->training ? 1 : 0;
}

int32_t mlc_model_num_train_inputs(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  // Plain models have no train inputs (and no variables).
  const TrainingState *t = model->training;
  return t ? t->trainSig.numInputs - t->trainSig.numVariableInputs : 0;
}

mlc_status mlc_model_train_input_info(const mlc_model *model, int32_t index,
                                      mlc_tensor_info *info) {
  if (mlc_status s = requireTrainable(model))
    return s;
  if (!info)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "train input info pointer is NULL");
  const Signature &sig = model->training->trainSig;
  int32_t count = sig.numInputs - sig.numVariableInputs;
  if (index < 0 || index >= count)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "train input index %d out of range (the model has %d "
                    "train inputs)",
                    int(index), int(count));
  fillInfo(sig.tensors[sig.numVariableInputs + index], info);
  return MLC_OK;
}

int32_t mlc_model_num_variables(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return model->training ? model->training->numVariables : 0;
}

mlc_status mlc_model_variable_info(const mlc_model *model, int32_t index,
                                   mlc_tensor_info *info,
                                   mlc_variable_kind *kind) {
  if (mlc_status s = checkVariableIndex(model, index))
    return s;
  if (!info)
    return setError(MLC_ERR_INVALID_ARGUMENT, "variable info pointer is NULL");
  const Variable &v = model->training->variables[index];
  fillInfo(*v.desc, info);
  if (kind)
    *kind = v.kind;
  return MLC_OK;
}

int32_t mlc_model_find_variable(const mlc_model *model, const char *name) {
  if (requireTrainable(model) != MLC_OK)
    return -1;
  if (!name) {
    setError(MLC_ERR_INVALID_ARGUMENT, "variable name is NULL");
    return -1;
  }
  const TrainingState &t = *model->training;
  for (int32_t i = 0; i < t.numVariables; ++i)
    if (strcmp(t.variables[i].desc->name, name) == 0)
      return i;
  setError(MLC_ERR_INVALID_ARGUMENT, "the model has no variable named '%s'",
           name);
  return -1;
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

namespace {
mlc_status checkVariableBuffer(const mlc_model *model, int32_t index,
                               const void *data, uint64_t size) {
  if (mlc_status s = checkVariableIndex(model, index))
    return s;
  const TensorDesc &t = *model->training->variables[index].desc;
  if (!data && t.sizeBytes)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "variable %d ('%s'): buffer is NULL", int(index), t.name);
  if (size != t.sizeBytes)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "variable %d ('%s'): expected a buffer of %llu bytes but "
                    "got %llu",
                    int(index), t.name, (unsigned long long)t.sizeBytes,
                    (unsigned long long)size);
  return MLC_OK;
}
} // namespace

mlc_status mlc_model_read_variable(const mlc_model *model, int32_t index,
                                   void *dst, uint64_t size) {
  if (mlc_status s = checkVariableBuffer(model, index, dst, size))
    return s;
  ReadLock lock(model);
  if (!lock.ok())
    return lockFailed();
  const TrainingState &t = *model->training;
  if (size)
    memcpy(dst, t.variables[index].copies[t.current], size_t(size));
  return MLC_OK;
}

mlc_status mlc_model_write_variable(mlc_model *model, int32_t index,
                                    const void *src, uint64_t size) {
  if (mlc_status s = checkVariableBuffer(model, index, src, size))
    return s;
  WriteLock lock(model);
  if (!lock.ok())
    return lockFailed();
  TrainingState &t = *model->training;
  if (size)
    memcpy(t.variables[index].copies[t.current], src, size_t(size));
  return MLC_OK;
}

mlc_status mlc_model_reset_variables(mlc_model *model) {
  if (mlc_status s = requireTrainable(model))
    return s;
  WriteLock lock(model);
  if (!lock.ok())
    return lockFailed();
  return runInit(model);
}

//===----------------------------------------------------------------------===//
// Training
//===----------------------------------------------------------------------===//

mlc_status mlc_model_train_step(mlc_model *model, const mlc_tensor *inputs,
                                int32_t numInputs, float *loss) {
  if (mlc_status s = requireTrainable(model))
    return s;
  TrainingState &t = *model->training;
  const Signature &sig = t.trainSig;
  const int32_t numVars = t.numVariables;
  const int32_t count = sig.numInputs - numVars;
  if (numInputs != count)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "expected %d train inputs but got %d", int(count),
                    int(numInputs));
  if (count > 0 && !inputs)
    return setError(MLC_ERR_INVALID_ARGUMENT, "train inputs array is NULL");
  for (int32_t i = 0; i < count; ++i)
    if (mlc_status s =
            checkTensor(sig.tensors[numVars + i], inputs[i], "train input", i))
      return s;

  // Buffers: variables, batch inputs, the loss, the updates.
  size_t numBuffers = size_t(sig.numInputs) + size_t(sig.numOutputs);
  void **buffers = static_cast<void **>(malloc(numBuffers * sizeof(void *)));
  if (!buffers)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory");
  float lossValue = 0;
  {
    WriteLock lock(model);
    if (!lock.ok()) {
      free(buffers);
      return lockFailed();
    }
    if (!t.trainWorkspace && t.trainWorkspaceBytes) {
      if (mlc_status s =
              allocateWorkspace(t.trainWorkspaceBytes, &t.trainWorkspace)) {
        free(buffers);
        return s;
      }
    }
    int cur = t.current, next = 1 - cur;
    for (int32_t i = 0; i < numVars; ++i) {
      buffers[i] = t.variables[i].copies[cur];
      buffers[sig.numInputs + 1 + i] = t.variables[i].copies[next];
    }
    for (int32_t i = 0; i < count; ++i)
      buffers[numVars + i] = inputs[i].data;
    buffers[sig.numInputs] = &lossValue;
    {
      CallScope call(model, Family::Train);
      t.trainEntry(buffers, t.trainWorkspace);
    }
    t.current = next;
  }
  free(buffers);
  if (loss)
    *loss = lossValue;
  return MLC_OK;
}
