//===- ModelLoad.cpp - mlc_model_open and mlc_model_close -----------------===//
//
// Loads a model.so through the ABI in mlc/model_abi.h: every symbol, the ABI
// version, the signature and the CPU features are checked before the model
// is handed out, so a bad file is an error message, never a crash. A
// trainable model's train and init families are set up by Training.cpp.
//
//===----------------------------------------------------------------------===//

#include "CpuFeatures.h"
#include "Error.h"
#include "ExternalWeights.h"
#include "Model.h"
#include "Profile.h"
#include "Signature.h"
#include "TrainingState.h"
#include "WeightsInFile.h"
#include "Workspace.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

using namespace mlc::rt;

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

  // Weights in the model.so's own file were mapped by its constructor
  // while it loaded; nothing may touch them if that failed.
  if (checkWeightsInFile(model) != MLC_OK) {
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
  // The weights before anything may read them (a CUDA model uploads them).
  if (mapExternalWeights(model) != MLC_OK || loadProfile(model) != MLC_OK ||
      setUpDevice(model) != MLC_OK) {
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
