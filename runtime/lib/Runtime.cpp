//===- Runtime.cpp - the mlc runtime C API --------------------------------===//
//
// Loads model.so files through the ABI in mlc/model_abi.h and runs them with
// full validation of the caller's tensors. A plain model is immutable, so
// runs need no locking; each run has its own workspace, taken from a small
// cache of finished runs' workspaces (a short mutex) or allocated. A trainable
// model's runs share its variables with training (see Training.cpp), so they
// hold its lock for reading.
//
//===----------------------------------------------------------------------===//

#include "mlc/runtime.h"
#include "CpuFeatures.h"
#include "Error.h"
#include "Model.h"
#include "Profile.h"
#include "Signature.h"
#include "TensorChecks.h"
#include "ThreadPool.h"
#include "TrainingState.h"
#include "Workspace.h"
#include "mlc/model_abi.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

using namespace mlc::rt;

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {
void destroyModel(mlc_model *model) {
  if (!model)
    return;
  destroyWorkspaceCache(model->workspaces);
  destroyTraining(model);
  freeProfile(model);
  freeSignature(&model->sig);
  if (model->handle)
    dlclose(model->handle);
  free(model->path);
  free(model);
}

/// dlsym that reports a missing symbol as "not an mlc model".
void *lookup(mlc_model *model, const char *symbol) {
  dlerror();
  void *p = dlsym(model->handle, symbol);
  if (!p)
    setError(MLC_ERR_LOAD, "'%s' is not an mlc model: missing symbol %s",
             model->path, symbol);
  return p;
}

/// A CUDA model's device: loads the driver and the kernels through the
/// model's own runtime copy (Cuda.cpp). CPU models need nothing.
mlc_status setUpDevice(mlc_model *model) {
  auto deviceFn = reinterpret_cast<mlc_model_device_kind_fn>(
      dlsym(model->handle, MLC_SYM_DEVICE));
  const char *device = deviceFn ? deviceFn() : "cpu";
  if (strcmp(device, "cpu") == 0)
    return MLC_OK;
  if (strcmp(device, "cuda") != 0)
    return setError(MLC_ERR_LOAD,
                    "'%s' is for device '%s', which this runtime does not "
                    "support",
                    model->path, device);
  if (model->training)
    return setError(MLC_ERR_LOAD,
                    "'%s': trainable CUDA models are not supported",
                    model->path);
  auto prepare = reinterpret_cast<mlc_abi_cuda_prepare_fn>(
      lookup(model, MLC_SYM_CUDA_PREPARE));
  model->cudaRun = reinterpret_cast<mlc_abi_cuda_run_fn>(
      prepare ? lookup(model, MLC_SYM_CUDA_RUN) : nullptr);
  if (!model->cudaRun)
    return MLC_ERR_LOAD;
  char err[1024] = "";
  if (int32_t s = prepare(err, sizeof(err)))
    return setError(mlc_status(s),
                    "'%s' is a CUDA model and cannot run here: %s", model->path,
                    err);
  return MLC_OK;
}

char *duplicate(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = static_cast<char *>(malloc(n));
  if (copy)
    memcpy(copy, s, n);
  return copy;
}
} // namespace

uint32_t mlc_runtime_api_version(void) { return MLC_RUNTIME_API_VERSION; }

mlc_model *mlc_model_open(const char *path) {
  if (!path) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model path is NULL");
    return nullptr;
  }
  mlc_model *model = static_cast<mlc_model *>(calloc(1, sizeof(mlc_model)));
  if (!model || !(model->path = duplicate(path))) {
    free(model);
    setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'", path);
    return nullptr;
  }
  initWorkspaceCache(model->workspaces);

  // A bare file name would make dlopen search the library path instead of
  // the current directory; callers mean the file.
  const char *loadPath = path;
  char *relative = nullptr;
  if (!strchr(path, '/')) {
    size_t n = strlen(path);
    relative = static_cast<char *>(malloc(n + 3));
    if (!relative) {
      destroyModel(model);
      setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'", path);
      return nullptr;
    }
    memcpy(relative, "./", 2);
    memcpy(relative + 2, path, n + 1);
    loadPath = relative;
  }
  dlerror();
  model->handle = dlopen(loadPath, RTLD_NOW | RTLD_LOCAL);
  free(relative);
  if (!model->handle) {
    const char *why = dlerror();
    setError(MLC_ERR_LOAD, "cannot load model '%s': %s", path,
             why ? why : "unknown dlopen error");
    destroyModel(model);
    return nullptr;
  }

  auto abiVersion = reinterpret_cast<mlc_model_abi_version_fn>(
      lookup(model, MLC_SYM_ABI_VERSION));
  auto signature = reinterpret_cast<mlc_model_signature_fn>(
      abiVersion ? lookup(model, MLC_SYM_SIGNATURE) : nullptr);
  auto cpuFeatures = reinterpret_cast<mlc_model_cpu_features_fn>(
      signature ? lookup(model, MLC_SYM_CPU_FEATURES) : nullptr);
  auto workspaceBytes = reinterpret_cast<mlc_model_workspace_bytes_fn>(
      cpuFeatures ? lookup(model, MLC_SYM_WORKSPACE_BYTES) : nullptr);
  model->entry = reinterpret_cast<mlc_model_entry_fn>(
      workspaceBytes ? lookup(model, MLC_SYM_ENTRY) : nullptr);
  if (!model->entry) {
    destroyModel(model);
    return nullptr;
  }

  // Optional: models built before it run without the setting.
  model->setNumThreads = reinterpret_cast<mlc_abi_set_num_threads_fn>(
      dlsym(model->handle, MLC_SYM_SET_NUM_THREADS));

  uint32_t version = abiVersion();
  if (version != MLC_MODEL_ABI_VERSION) {
    setError(MLC_ERR_LOAD,
             "'%s' was compiled for model ABI version %u, but this runtime "
             "supports version %u; recompile the model with a matching "
             "mlc-compile",
             path, version, unsigned(MLC_MODEL_ABI_VERSION));
    destroyModel(model);
    return nullptr;
  }

  // The train entry is what makes a model trainable; its inference
  // signature may then read variables.
  dlerror();
  bool trainable = dlsym(model->handle, MLC_TRAIN_PREFIX "_entry");
  if (trainable && createTraining(model) != MLC_OK) {
    destroyModel(model);
    return nullptr;
  }
  char err[1024];
  if (!parseSignature(signature(), &model->sig, err, sizeof(err), trainable)) {
    setError(MLC_ERR_LOAD, "'%s' has a malformed signature: %s", path, err);
    destroyModel(model);
    return nullptr;
  }

  mlc_status status =
      checkCpuFeatures(cpuFeatures(), hostCpuFeatureMask(), err, sizeof(err));
  if (status != MLC_OK) {
    setError(status, "'%s' cannot run on this CPU: the model %s", path, err);
    destroyModel(model);
    return nullptr;
  }
  model->workspaceBytes = workspaceBytes();
  if (loadProfile(model) != MLC_OK || setUpDevice(model) != MLC_OK) {
    destroyModel(model);
    return nullptr;
  }
  if (trainable && setUpTraining(model) != MLC_OK) {
    destroyModel(model);
    return nullptr;
  }
  return model;
}

void mlc_model_close(mlc_model *model) { destroyModel(model); }

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

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

namespace {
/// A CUDA model's run, through the model's runtime copy.
mlc_status runOnCuda(const mlc_model *model, const mlc_tensor *inputs,
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
} // namespace

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
