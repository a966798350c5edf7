//===- Profile.cpp - per-kernel times of a model's runs -------------------===//
//
// Two halves, both in every runtime copy:
//
// - The hooks compiled kernels call (mlc-instrument-kernels brackets kernel
//   k with mlc_profile_begin(k) / mlc_profile_end(k)) and the ABI setter
//   mlc_abi_set_profile. They run inside the model.so's own runtime copy.
//   With profiling off everywhere they cost one load and a branch: the
//   count of profiled calls in flight in this runtime copy is zero. The
//   counters a call adds to are thread-local, set by the runtime right
//   before it calls into the model, so concurrent runs of other models, or
//   unprofiled runs of this one, never touch them.
//
// - The C API (mlc_model_set_profiling, mlc_model_kernel_info, ...), which
//   reads the kernel tables the model exports (<prefix>_kernels, one per
//   function family) and owns the counters: two 64-bit words per kernel,
//   added to with relaxed atomics, so concurrent profiled runs sum their
//   times without tearing or losing updates.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "Error.h"
#include "Model.h"
#include "Signature.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

using namespace mlc::rt;

//===----------------------------------------------------------------------===//
// Hooks called by the compiled kernels
//===----------------------------------------------------------------------===//

namespace {
// Calls into this model.so with profiling on, over all threads.
int32_t gProfiledCalls;
// The calling thread's counters (NULL: not profiling), their kernel count,
// the open kernel + 1 (0: none) and when it began. One struct: one TLS
// address computation per hook.
struct ThreadProfile {
  uint64_t *counters;
  int32_t numKernels;
  int32_t openKernel;
  uint64_t begin;
};
__thread ThreadProfile tlsProfile;

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

bool profilingAnywhere() {
  return __builtin_expect(
      __atomic_load_n(&gProfiledCalls, __ATOMIC_RELAXED) != 0, 0);
}
} // namespace

extern "C" {

// Hidden like the rest of the runtime: the model's own code calls them.
void mlc_profile_begin(int32_t kernel) {
  if (!profilingAnywhere())
    return;
  ThreadProfile &t = tlsProfile;
  if (!t.counters || kernel < 0 || kernel >= t.numKernels)
    return;
  t.openKernel = kernel + 1;
  t.begin = nowNs();
}

void mlc_profile_end(int32_t kernel) {
  if (!profilingAnywhere())
    return;
  uint64_t end = nowNs();
  ThreadProfile &t = tlsProfile;
  // A kernel that did not begin on this thread is ignored, not misfiled.
  if (!t.counters || t.openKernel != kernel + 1)
    return;
  __atomic_fetch_add(&t.counters[2 * kernel], end - t.begin, __ATOMIC_RELAXED);
  __atomic_fetch_add(&t.counters[2 * kernel + 1], 1, __ATOMIC_RELAXED);
  t.openKernel = 0;
}

__attribute__((visibility("default"))) void
mlc_abi_set_profile(uint64_t *counters, int32_t numKernels) {
  ThreadProfile &t = tlsProfile;
  bool on = counters && numKernels > 0;
  if (on && !t.counters)
    __atomic_fetch_add(&gProfiledCalls, 1, __ATOMIC_RELAXED);
  else if (!on && t.counters)
    __atomic_fetch_sub(&gProfiledCalls, 1, __ATOMIC_RELAXED);
  t.counters = on ? counters : nullptr;
  t.numKernels = on ? numKernels : 0;
  t.openKernel = 0;
}

} // extern "C"

//===----------------------------------------------------------------------===//
// Kernel tables
//===----------------------------------------------------------------------===//

namespace {
const char *const kFamilyPrefix[kNumFamilies] = {"mlc_model", MLC_TRAIN_PREFIX,
                                                 MLC_INIT_PREFIX};
const char *const kFamilyName[kNumFamilies] = {"run", "train", "init"};

char *copyRange(const char *begin, const char *end) {
  size_t n = size_t(end - begin);
  char *s = static_cast<char *>(malloc(n + 1));
  if (s) {
    memcpy(s, begin, n);
    s[n] = '\0';
  }
  return s;
}

/// Lines of a table text; each must end with '\n'.
int32_t countLines(const char *text) {
  int32_t n = 0;
  for (const char *p = text; *p; ++p)
    n += *p == '\n';
  return n;
}

} // namespace

bool mlc::rt::parseKernelTable(const char *text, Family family, KernelDesc *out,
                               char *err, size_t errSize) {
  const char *p = text;
  for (int32_t line = 1; *p; ++line, ++out) {
    const char *end = strchr(p, '\n');
    if (!end) {
      snprintf(err, errSize, "line %d does not end with a newline", line);
      return false;
    }
    uint64_t flops = 0;
    const char *q = p;
    for (; q < end && *q >= '0' && *q <= '9'; ++q) {
      uint64_t digit = uint64_t(*q - '0');
      if (flops > (UINT64_MAX - digit) / 10) {
        snprintf(err, errSize, "line %d: FLOP count out of range", line);
        return false;
      }
      flops = flops * 10 + digit;
    }
    const char *ops = q + 1;
    const char *opsEnd =
        ops < end
            ? static_cast<const char *>(memchr(ops, ' ', size_t(end - ops)))
            : nullptr;
    if (q == p || q >= end || *q != ' ' || !opsEnd || opsEnd == ops) {
      snprintf(err, errSize,
               "line %d: expected '<flops> <ops> <name>' but got '%.*s'", line,
               int(end - p), p);
      return false;
    }
    out->family = family;
    out->flops = flops;
    out->ops = copyRange(ops, opsEnd);
    out->name = copyRange(opsEnd + 1, end);
    if (!out->ops || !out->name) {
      snprintf(err, errSize, "out of memory");
      return false;
    }
    p = end + 1;
  }
  return true;
}

mlc_status mlc::rt::loadProfile(mlc_model *model) {
  Profile &prof = model->profile;
  const char *texts[kNumFamilies] = {};
  int32_t total = 0;
  for (int f = 0; f < kNumFamilies; ++f) {
    char symbol[64];
    snprintf(symbol, sizeof(symbol), "%s_kernels", kFamilyPrefix[f]);
    auto fn =
        reinterpret_cast<mlc_model_kernels_fn>(dlsym(model->handle, symbol));
    if (!fn)
      continue;
    texts[f] = fn();
    if (!texts[f])
      texts[f] = "";
    prof.first[f] = total;
    prof.count[f] = countLines(texts[f]);
    if (prof.count[f] > kMaxTensors - total)
      return setError(MLC_ERR_LOAD, "'%s' has too many kernels", model->path);
    total += prof.count[f];
    prof.hasTable = true;
  }
  // Only profiled families need the setter; a model without it is refused
  // rather than silently never profiled.
  if (!prof.hasTable)
    return MLC_OK;
  prof.setProfile = reinterpret_cast<mlc_abi_set_profile_fn>(
      dlsym(model->handle, MLC_SYM_SET_PROFILE));
  if (!prof.setProfile)
    return setError(MLC_ERR_LOAD,
                    "'%s' has a kernel table but no %s: not an mlc model",
                    model->path, MLC_SYM_SET_PROFILE);
  prof.numKernels = total;
  if (total == 0)
    return MLC_OK;
  prof.kernels =
      static_cast<KernelDesc *>(calloc(size_t(total), sizeof(KernelDesc)));
  prof.counters =
      static_cast<uint64_t *>(calloc(size_t(total) * 2, sizeof(uint64_t)));
  if (!prof.kernels || !prof.counters)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'",
                    model->path);
  for (int f = 0; f < kNumFamilies; ++f) {
    char err[512];
    if (texts[f] &&
        !parseKernelTable(texts[f], Family(f), prof.kernels + prof.first[f],
                          err, sizeof(err)))
      return setError(MLC_ERR_LOAD,
                      "'%s' has a malformed kernel table (%s): %s", model->path,
                      kFamilyName[f], err);
  }
  return MLC_OK;
}

void mlc::rt::freeProfile(mlc_model *model) {
  Profile &prof = model->profile;
  for (int32_t i = 0; prof.kernels && i < prof.numKernels; ++i) {
    free(prof.kernels[i].name);
    free(prof.kernels[i].ops);
  }
  free(prof.kernels);
  free(prof.counters);
}

//===----------------------------------------------------------------------===//
// Calls into the model
//===----------------------------------------------------------------------===//

CallScope::CallScope(const mlc_model *model, Family family) : model(model) {
  // The model's own runtime copy runs its parallel loops and keeps the
  // setting per thread: set it on this thread every time, as it may have
  // changed since this thread's last call.
  if (model->setNumThreads)
    model->setNumThreads(__atomic_load_n(&model->numThreads, __ATOMIC_RELAXED));
  const Profile &prof = model->profile;
  int f = int(family);
  profiled = __atomic_load_n(&prof.on, __ATOMIC_RELAXED) && prof.count[f] > 0;
  if (profiled)
    prof.setProfile(prof.counters + 2 * prof.first[f], prof.count[f]);
}

CallScope::~CallScope() {
  if (profiled)
    model->profile.setProfile(nullptr, 0);
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

int32_t mlc_model_num_kernels(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return model->profile.numKernels;
}

mlc_status mlc_model_kernel_info(const mlc_model *model, int32_t index,
                                 mlc_kernel_info *info) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (!info)
    return setError(MLC_ERR_INVALID_ARGUMENT, "kernel info pointer is NULL");
  const Profile &prof = model->profile;
  if (index < 0 || index >= prof.numKernels)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "kernel index %d out of range (the model has %d kernels)",
                    int(index), int(prof.numKernels));
  const KernelDesc &k = prof.kernels[index];
  info->name = k.name;
  info->ops = k.ops;
  info->entry = kFamilyName[int(k.family)];
  info->flops = k.flops;
  return MLC_OK;
}

mlc_status mlc_model_set_profiling(mlc_model *model, int32_t on) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  if (on && !model->profile.hasTable)
    return setError(MLC_ERR_UNSUPPORTED,
                    "'%s' has no kernel table, so it cannot be profiled "
                    "(a CUDA model, or one built before profiling existed "
                    "or with mlc-compile --profile=false: recompile it)",
                    model->path);
  __atomic_store_n(&model->profile.on, on ? 1 : 0, __ATOMIC_RELAXED);
  return MLC_OK;
}

int32_t mlc_model_profiling(const mlc_model *model) {
  if (!model) {
    setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
    return -1;
  }
  return __atomic_load_n(&model->profile.on, __ATOMIC_RELAXED);
}

mlc_status mlc_model_kernel_times(const mlc_model *model, uint64_t *total_ns,
                                  uint64_t *calls, int32_t count) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  const Profile &prof = model->profile;
  if (count != prof.numKernels)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "expected room for %d kernels but got %d",
                    int(prof.numKernels), int(count));
  if (count > 0 && !total_ns && !calls)
    return setError(MLC_ERR_INVALID_ARGUMENT,
                    "total_ns and calls are both NULL");
  for (int32_t i = 0; i < count; ++i) {
    if (total_ns)
      total_ns[i] = __atomic_load_n(&prof.counters[2 * i], __ATOMIC_RELAXED);
    if (calls)
      calls[i] = __atomic_load_n(&prof.counters[2 * i + 1], __ATOMIC_RELAXED);
  }
  return MLC_OK;
}

mlc_status mlc_model_reset_profile(mlc_model *model) {
  if (!model)
    return setError(MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  const Profile &prof = model->profile;
  for (int32_t i = 0; i < 2 * prof.numKernels; ++i)
    __atomic_store_n(&prof.counters[i], 0, __ATOMIC_RELAXED);
  return MLC_OK;
}
