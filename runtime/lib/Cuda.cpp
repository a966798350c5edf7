//===- Cuda.cpp - the runtime's CUDA driver shim --------------------------===//
//
// What a CUDA model.so (mlc-compile --target=cuda) needs at run time:
//  - the host calls its lowering emits (MLIR's gpu-to-llvm names them
//    mgpu*): module load/unload, function lookup, kernel launch, streams;
//  - mlc_cuda_device_constant: the device copy of a weight (mlc-device-
//    constants), uploaded once per loaded model;
//  - the two ABI functions the runtime API calls through dlsym
//    (mlc_abi_cuda_prepare, mlc_abi_cuda_run; see mlc/model_abi.h).
//
// libcuda.so.1 is opened with dlopen on first use, never at load time:
// the module-load calls run from the model's constructors when the model.so
// is dlopen'ed, so they only record the blob. A machine without the driver
// or a GPU gets an error from mlc_abi_cuda_prepare, never a crash.
//
// The driver's types are declared here (the runtime builds without CUDA's
// headers). Every driver call is checked; the first failure of the generated
// code's calls (which return nothing) is kept and reported by the run that
// made it. All of a run's kernels go to the context's legacy default stream
// in order; the per-launch synchronization the lowering emits is deferred
// to one wait at the end of the run, which also reports faults.
//
//===----------------------------------------------------------------------===//

#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

//===----------------------------------------------------------------------===//
// The driver API, loaded with dlopen
//===----------------------------------------------------------------------===//

typedef int CUresult; // CUDA_SUCCESS == 0
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;

struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetName)(char *, int, CUdevice);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)(void);
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*getErrorName)(CUresult, const char **);
  CUresult (*getErrorString)(CUresult, const char **);
};

/// A module the model's constructors registered; loaded on first use.
struct Module {
  const void *blob;
  size_t size;
  CUmodule handle;
  Module *next;
  // Functions looked up so far, by the (constant) name pointer the
  // generated code passes.
  struct Function {
    const char *name;
    CUfunction fn;
  } *functions;
  int numFunctions, capacity;
};

/// A weight's device copy.
struct Constant {
  const void *host;
  uint64_t bytes;
  CUdeviceptr device;
};

/// Device buffers of a run: kept for the next run when large enough.
struct Buffer {
  CUdeviceptr ptr;
  uint64_t bytes;
};

struct State {
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  // Serializes runs: they share the buffers and the deferred error.
  pthread_mutex_t runLock = PTHREAD_MUTEX_INITIALIZER;
  bool initTried;
  mlc_status initStatus;
  char initError[512];
  void *library;
  Driver cu;
  CUdevice device;
  CUcontext context;
  Module *modules;
  Constant *constants;
  int numConstants, constantCapacity;
  Buffer *buffers; // one per tensor, then the workspace
  int numBuffers;
  // The first failure of a generated-code call since the last run began.
  bool failed;
  char error[512];
};

State state;

/// "CUDA_ERROR_X: description" for a driver result.
void describe(CUresult r, char *buf, size_t size) {
  const char *name = nullptr, *text = nullptr;
  if (state.cu.getErrorName)
    state.cu.getErrorName(r, &name);
  if (state.cu.getErrorString)
    state.cu.getErrorString(r, &text);
  snprintf(buf, size, "%s (%d): %s", name ? name : "CUDA error", r,
           text ? text : "unknown error");
}

/// Records the first failure of the generated code's calls (which cannot
/// return one); the run reports it.
void recordFailure(const char *what, CUresult r) {
  pthread_mutex_lock(&state.lock);
  if (!state.failed) {
    char why[256];
    describe(r, why, sizeof(why));
    snprintf(state.error, sizeof(state.error), "%s failed: %s", what, why);
    state.failed = true;
  }
  pthread_mutex_unlock(&state.lock);
}

template <typename F> bool bind(F &slot, const char *name) {
  slot = reinterpret_cast<F>(dlsym(state.library, name));
  return slot != nullptr;
}

/// Loads the driver and sets up the device's primary context, once. The
/// device is MLC_CUDA_DEVICE (default 0).
mlc_status initLocked() {
  if (state.initTried)
    return state.initStatus;
  state.initTried = true;
  auto fail = [](mlc_status s, const char *fmt, const char *a,
                 const char *b) {
    snprintf(state.initError, sizeof(state.initError), fmt, a, b);
    state.initStatus = s;
    return s;
  };
  state.library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!state.library) {
    const char *why = dlerror();
    return fail(MLC_ERR_UNSUPPORTED,
                "no CUDA driver/device found (%s%s)",
                why ? why : "libcuda.so.1 not found", "");
  }
  Driver &cu = state.cu;
  struct {
    bool ok;
    const char *name;
  } symbols[] = {
      {bind(cu.init, "cuInit"), "cuInit"},
      {bind(cu.deviceGetCount, "cuDeviceGetCount"), "cuDeviceGetCount"},
      {bind(cu.deviceGet, "cuDeviceGet"), "cuDeviceGet"},
      {bind(cu.deviceGetName, "cuDeviceGetName"), "cuDeviceGetName"},
      {bind(cu.deviceGetAttribute, "cuDeviceGetAttribute"),
       "cuDeviceGetAttribute"},
      {bind(cu.primaryCtxRetain, "cuDevicePrimaryCtxRetain"),
       "cuDevicePrimaryCtxRetain"},
      {bind(cu.primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
       "cuDevicePrimaryCtxRelease_v2"},
      {bind(cu.ctxSetCurrent, "cuCtxSetCurrent"), "cuCtxSetCurrent"},
      {bind(cu.ctxSynchronize, "cuCtxSynchronize"), "cuCtxSynchronize"},
      {bind(cu.moduleLoadData, "cuModuleLoadData"), "cuModuleLoadData"},
      {bind(cu.moduleUnload, "cuModuleUnload"), "cuModuleUnload"},
      {bind(cu.moduleGetFunction, "cuModuleGetFunction"),
       "cuModuleGetFunction"},
      {bind(cu.launchKernel, "cuLaunchKernel"), "cuLaunchKernel"},
      {bind(cu.memAlloc, "cuMemAlloc_v2"), "cuMemAlloc_v2"},
      {bind(cu.memFree, "cuMemFree_v2"), "cuMemFree_v2"},
      {bind(cu.memcpyHtoD, "cuMemcpyHtoD_v2"), "cuMemcpyHtoD_v2"},
      {bind(cu.memcpyDtoH, "cuMemcpyDtoH_v2"), "cuMemcpyDtoH_v2"},
      {bind(cu.getErrorName, "cuGetErrorName"), "cuGetErrorName"},
      {bind(cu.getErrorString, "cuGetErrorString"), "cuGetErrorString"},
  };
  for (const auto &s : symbols)
    if (!s.ok)
      return fail(MLC_ERR_UNSUPPORTED,
                  "the CUDA driver (libcuda.so.1) lacks %s%s; it is too old",
                  s.name, "");
  char why[256];
  CUresult r = cu.init(0);
  if (r != 0) {
    describe(r, why, sizeof(why));
    return fail(MLC_ERR_UNSUPPORTED, "no CUDA driver/device found (cuInit: %s%s)",
                why, "");
  }
  int count = 0;
  if (cu.deviceGetCount(&count) != 0 || count == 0)
    return fail(MLC_ERR_UNSUPPORTED,
                "no CUDA driver/device found (the driver sees no GPU%s%s)", "",
                "");
  int ordinal = 0;
  if (const char *env = getenv("MLC_CUDA_DEVICE")) {
    char *end;
    long v = strtol(env, &end, 10);
    if (*env == '\0' || *end != '\0' || v < 0 || v >= count)
      return fail(MLC_ERR_INVALID_ARGUMENT,
                  "MLC_CUDA_DEVICE='%s' is not a GPU index (this machine has "
                  "%s)",
                  env, count == 1 ? "GPU 0 only" : "fewer GPUs");
    ordinal = int(v);
  }
  if ((r = cu.deviceGet(&state.device, ordinal)) != 0 ||
      (r = cu.primaryCtxRetain(&state.context, state.device)) != 0) {
    describe(r, why, sizeof(why));
    return fail(MLC_ERR_UNSUPPORTED, "cannot use the GPU: %s%s", why, "");
  }
  state.initStatus = MLC_OK;
  return MLC_OK;
}

/// Makes the model's context current on this thread (after init).
bool enter() {
  pthread_mutex_lock(&state.lock);
  mlc_status s = initLocked();
  pthread_mutex_unlock(&state.lock);
  if (s != MLC_OK)
    return false;
  CUresult r = state.cu.ctxSetCurrent(state.context);
  if (r != 0) {
    recordFailure("cuCtxSetCurrent", r);
    return false;
  }
  return true;
}

/// Loads a registered module (lock held, driver ready).
CUresult loadLocked(Module *m) {
  if (m->handle)
    return 0;
  return state.cu.moduleLoadData(&m->handle, m->blob);
}

void freeBuffers() {
  for (int i = 0; i < state.numBuffers; ++i)
    if (state.buffers[i].ptr)
      state.cu.memFree(state.buffers[i].ptr);
  free(state.buffers);
  state.buffers = nullptr;
  state.numBuffers = 0;
}

/// At dlclose of the model.so (or exit): the device memory and context.
__attribute__((destructor)) void releaseAll() {
  if (!state.initTried || state.initStatus != MLC_OK)
    return;
  state.cu.ctxSetCurrent(state.context);
  for (int i = 0; i < state.numConstants; ++i)
    state.cu.memFree(state.constants[i].device);
  free(state.constants);
  state.constants = nullptr;
  state.numConstants = 0;
  freeBuffers();
  state.cu.primaryCtxRelease(state.device);
  state.initTried = false;
  // The library stays loaded: the driver does not support being unloaded.
}

/// Ensures `slot` holds at least `bytes` of device memory.
mlc_status ensureBuffer(Buffer &slot, uint64_t bytes, char *err,
                        size_t errSize) {
  if (slot.bytes >= bytes && (slot.ptr || bytes == 0))
    return MLC_OK;
  if (slot.ptr)
    state.cu.memFree(slot.ptr);
  slot = Buffer{0, 0};
  CUresult r = state.cu.memAlloc(&slot.ptr, bytes);
  if (r != 0) {
    char why[256];
    describe(r, why, sizeof(why));
    snprintf(err, errSize, "cannot allocate %llu bytes on the GPU: %s",
             (unsigned long long)bytes, why);
    slot = Buffer{0, 0};
    return MLC_ERR_OUT_OF_MEMORY;
  }
  slot.bytes = bytes;
  return MLC_OK;
}

} // namespace

//===----------------------------------------------------------------------===//
// Calls the generated host code makes (hidden: each model.so has its own)
//===----------------------------------------------------------------------===//

extern "C" {

void *mgpuModuleLoad(void *blob, size_t size) {
  // Called from the model's constructor at dlopen: no CUDA here.
  Module *m = static_cast<Module *>(calloc(1, sizeof(Module)));
  if (!m)
    return nullptr;
  m->blob = blob;
  m->size = size;
  pthread_mutex_lock(&state.lock);
  m->next = state.modules;
  state.modules = m;
  pthread_mutex_unlock(&state.lock);
  return m;
}

void mgpuModuleUnload(void *module) {
  Module *m = static_cast<Module *>(module);
  if (!m)
    return;
  pthread_mutex_lock(&state.lock);
  for (Module **p = &state.modules; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  if (m->handle && state.initStatus == MLC_OK && state.initTried)
    state.cu.moduleUnload(m->handle);
  pthread_mutex_unlock(&state.lock);
  free(m->functions);
  free(m);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Module *m = static_cast<Module *>(module);
  if (!m) {
    recordFailure("loading the model's kernels", 1 /*invalid value*/);
    return nullptr;
  }
  pthread_mutex_lock(&state.lock);
  for (int i = 0; i < m->numFunctions; ++i)
    if (m->functions[i].name == name) {
      CUfunction fn = m->functions[i].fn;
      pthread_mutex_unlock(&state.lock);
      return fn;
    }
  CUfunction fn = nullptr;
  CUresult r = state.initStatus == MLC_OK ? loadLocked(m) : 1;
  if (r == 0)
    r = state.cu.moduleGetFunction(&fn, m->handle, name);
  if (r == 0 && m->numFunctions == m->capacity) {
    int capacity = m->capacity ? 2 * m->capacity : 16;
    void *grown =
        realloc(m->functions, size_t(capacity) * sizeof(Module::Function));
    if (grown) {
      m->functions = static_cast<Module::Function *>(grown);
      m->capacity = capacity;
    }
  }
  if (r == 0 && m->numFunctions < m->capacity)
    m->functions[m->numFunctions++] = {name, fn};
  pthread_mutex_unlock(&state.lock);
  if (r != 0) {
    char what[160];
    snprintf(what, sizeof(what), "loading kernel '%s'", name);
    recordFailure(what, r);
    return nullptr;
  }
  return fn;
}

// One in-order stream per context (the legacy default stream) runs a run's
// kernels; the wait is deferred to the end of the run (see above).
void *mgpuStreamCreate() { return nullptr; }
void mgpuStreamDestroy(void *) {}
void mgpuStreamSynchronize(void *) {}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void ** /*extra*/, size_t /*paramsCount*/) {
  if (!function)
    return; // its lookup failed and was recorded
  CUresult r = state.cu.launchKernel(
      static_cast<CUfunction>(function), unsigned(gridX), unsigned(gridY),
      unsigned(gridZ), unsigned(blockX), unsigned(blockY), unsigned(blockZ),
      unsigned(smem), static_cast<CUstream>(stream), params, nullptr);
  if (r != 0)
    recordFailure("launching a kernel", r);
}

void *mlc_cuda_device_constant(const void *host, uint64_t bytes) {
  pthread_mutex_lock(&state.lock);
  for (int i = 0; i < state.numConstants; ++i)
    if (state.constants[i].host == host) {
      CUdeviceptr d = state.constants[i].device;
      pthread_mutex_unlock(&state.lock);
      return reinterpret_cast<void *>(d);
    }
  CUdeviceptr device = 0;
  CUresult r = state.initStatus == MLC_OK ? state.cu.memAlloc(&device, bytes)
                                          : 1;
  if (r == 0 && (r = state.cu.memcpyHtoD(device, host, bytes)) != 0)
    state.cu.memFree(device);
  if (r == 0 && state.numConstants == state.constantCapacity) {
    int capacity = state.constantCapacity ? 2 * state.constantCapacity : 64;
    void *grown =
        realloc(state.constants, size_t(capacity) * sizeof(Constant));
    if (!grown) {
      state.cu.memFree(device);
      r = 2; // CUDA_ERROR_OUT_OF_MEMORY
    } else {
      state.constants = static_cast<Constant *>(grown);
      state.constantCapacity = capacity;
    }
  }
  if (r == 0)
    state.constants[state.numConstants++] = {host, bytes, device};
  pthread_mutex_unlock(&state.lock);
  if (r != 0) {
    char what[96];
    snprintf(what, sizeof(what), "uploading a %llu-byte weight",
             (unsigned long long)bytes);
    recordFailure(what, r);
    return nullptr;
  }
  return reinterpret_cast<void *>(device);
}

//===----------------------------------------------------------------------===//
// The ABI the runtime API calls (exported; mlc/model_abi.h)
//===----------------------------------------------------------------------===//

MLC_API int32_t mlc_abi_cuda_prepare(char *err, size_t errSize) {
  pthread_mutex_lock(&state.lock);
  mlc_status s = initLocked();
  if (s != MLC_OK) {
    snprintf(err, errSize, "%s", state.initError);
    pthread_mutex_unlock(&state.lock);
    return s;
  }
  // Load the kernels now, so that a GPU the fatbin has no code for fails
  // here rather than in the first run.
  CUresult r = state.cu.ctxSetCurrent(state.context);
  for (Module *m = state.modules; m && r == 0; m = m->next)
    r = loadLocked(m);
  pthread_mutex_unlock(&state.lock);
  if (r != 0) {
    char why[256], name[128] = "?";
    describe(r, why, sizeof(why));
    int major = 0, minor = 0;
    state.cu.deviceGetName(name, sizeof(name), state.device);
    state.cu.deviceGetAttribute(&major, kAttrComputeCapabilityMajor,
                                state.device);
    state.cu.deviceGetAttribute(&minor, kAttrComputeCapabilityMinor,
                                state.device);
    snprintf(err, errSize,
             "cannot load the model's kernels on %s (sm_%d%d): %s (compile "
             "with --cuda-arch including this GPU)",
             name, major, minor, why);
    return MLC_ERR_UNSUPPORTED;
  }
  return MLC_OK;
}

MLC_API int32_t mlc_abi_cuda_run(mlc_model_entry_fn entry, void **buffers,
                                 const uint64_t *sizes, int32_t numInputs,
                                 int32_t numOutputs, uint64_t workspaceBytes,
                                 int32_t onDevice, char *err, size_t errSize) {
  pthread_mutex_lock(&state.runLock);
  mlc_status status = MLC_OK;
  int32_t numTensors = numInputs + numOutputs;
  void *stackArgs[32];
  void **args = stackArgs;
  CUresult r = 0;
  if (!enter()) {
    snprintf(err, errSize, "%s",
             state.initStatus != MLC_OK ? state.initError : state.error);
    pthread_mutex_unlock(&state.runLock);
    return state.initStatus != MLC_OK ? state.initStatus : MLC_ERR_INTERNAL;
  }
  if (numTensors + 1 > int32_t(sizeof(stackArgs) / sizeof(stackArgs[0])) &&
      !(args = static_cast<void **>(
            malloc(size_t(numTensors + 1) * sizeof(void *))))) {
    pthread_mutex_unlock(&state.runLock);
    snprintf(err, errSize, "out of memory");
    return MLC_ERR_OUT_OF_MEMORY;
  }
  // Device buffers: the caller's (onDevice), or ours with the data copied.
  if (state.numBuffers != numTensors + 1) {
    freeBuffers();
    state.buffers =
        static_cast<Buffer *>(calloc(size_t(numTensors + 1), sizeof(Buffer)));
    if (!state.buffers) {
      status = MLC_ERR_OUT_OF_MEMORY;
      snprintf(err, errSize, "out of memory");
    } else {
      state.numBuffers = numTensors + 1;
    }
  }
  for (int32_t i = 0; status == MLC_OK && i < numTensors; ++i) {
    if (onDevice) {
      args[i] = buffers[i];
      continue;
    }
    status = ensureBuffer(state.buffers[i], sizes[i], err, errSize);
    args[i] = reinterpret_cast<void *>(state.buffers[i].ptr);
    if (status == MLC_OK && i < numInputs && sizes[i] &&
        (r = state.cu.memcpyHtoD(state.buffers[i].ptr, buffers[i],
                                 sizes[i])) != 0) {
      char why[256];
      describe(r, why, sizeof(why));
      snprintf(err, errSize, "copying input %d to the GPU failed: %s",
               int(i), why);
      status = MLC_ERR_INTERNAL;
    }
  }
  if (status == MLC_OK)
    status = ensureBuffer(state.buffers[numTensors], workspaceBytes, err,
                          errSize);
  if (status == MLC_OK) {
    args[numTensors] = reinterpret_cast<void *>(state.buffers[numTensors].ptr);
    pthread_mutex_lock(&state.lock);
    state.failed = false;
    pthread_mutex_unlock(&state.lock);
    entry(args, args[numTensors]);
    r = state.cu.ctxSynchronize();
    if (state.failed) {
      snprintf(err, errSize, "%s", state.error);
      status = MLC_ERR_INTERNAL;
    } else if (r != 0) {
      char why[256];
      describe(r, why, sizeof(why));
      snprintf(err, errSize, "the model's kernels failed on the GPU: %s", why);
      status = MLC_ERR_INTERNAL;
    }
  }
  for (int32_t i = numInputs; status == MLC_OK && !onDevice && i < numTensors;
       ++i) {
    if (sizes[i] && (r = state.cu.memcpyDtoH(buffers[i], state.buffers[i].ptr,
                                             sizes[i])) != 0) {
      char why[256];
      describe(r, why, sizeof(why));
      snprintf(err, errSize, "copying output %d from the GPU failed: %s",
               int(i - numInputs), why);
      status = MLC_ERR_INTERNAL;
    }
  }
  if (args != stackArgs)
    free(args);
  pthread_mutex_unlock(&state.runLock);
  return status;
}

} // extern "C"
