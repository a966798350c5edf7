//===- CpuFeatures.cpp - refuse models the CPU cannot run -----------------===//
//
// A model compiled for e.g. AVX-512 would die with SIGILL on an older CPU;
// checking the features it declares turns that into an error message.
//
//===----------------------------------------------------------------------===//

#include "CpuFeatures.h"
#include "Error.h"

#include "mlc/model_abi.h"

#include <stdio.h>
#include <string.h>

using namespace mlc::rt;

namespace {
// Order defines the bits of the masks; keep in sync with hostCpuFeatureMask.
const char *const kFeatureNames[] = {
    "sse4.2",  "avx",      "avx2",     "fma",      "f16c",
    "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512vnni"};
constexpr int32_t kNumFeatures =
    int32_t(sizeof(kFeatureNames) / sizeof(kFeatureNames[0]));
} // namespace

int32_t mlc::rt::cpuFeatureCount() { return kNumFeatures; }

const char *mlc::rt::cpuFeatureName(int32_t index) {
  return index >= 0 && index < kNumFeatures ? kFeatureNames[index] : nullptr;
}

uint32_t mlc::rt::hostCpuFeatureMask() {
  uint32_t mask = 0;
#if defined(__x86_64__) || defined(__i386__)
  // Safe to call repeatedly; needed because this may run before the
  // constructor that normally initializes the CPU model data.
  __builtin_cpu_init();
  // __builtin_cpu_supports only accepts string literals, hence no loop.
  int has[] = {
      __builtin_cpu_supports("sse4.2"),   __builtin_cpu_supports("avx"),
      __builtin_cpu_supports("avx2"),     __builtin_cpu_supports("fma"),
      __builtin_cpu_supports("f16c"),     __builtin_cpu_supports("avx512f"),
      __builtin_cpu_supports("avx512bw"), __builtin_cpu_supports("avx512vl"),
      __builtin_cpu_supports("avx512dq"), __builtin_cpu_supports("avx512vnni")};
  static_assert(sizeof(has) / sizeof(has[0]) == kNumFeatures,
                "feature table mismatch");
  for (int32_t i = 0; i < kNumFeatures; ++i)
    if (has[i])
      mask |= uint32_t(1) << i;
#endif
  return mask;
}

mlc_status mlc::rt::checkCpuFeatures(const char *features,
                                     uint32_t supportedMask, char *err,
                                     size_t errSize) {
  if (!features)
    return MLC_OK;
  const char *p = features;
  while (*p) {
    const char *end = strchr(p, ',');
    if (!end)
      end = p + strlen(p);
    const char *b = p, *e = end;
    while (b != e && *b == ' ')
      ++b;
    while (e != b && e[-1] == ' ')
      --e;
    size_t len = size_t(e - b);
    if (len) {
      int32_t index = -1;
      for (int32_t i = 0; i < kNumFeatures; ++i) {
        if (strlen(kFeatureNames[i]) == len &&
            memcmp(kFeatureNames[i], b, len) == 0) {
          index = i;
          break;
        }
      }
      int shown = len > 40 ? 40 : int(len);
      if (index < 0) {
        snprintf(err, errSize,
                 "requires unknown CPU feature '%.*s' (this runtime knows "
                 "sse4.2, avx, avx2, fma, f16c, avx512f, avx512bw, avx512vl, "
                 "avx512dq, avx512vnni)",
                 shown, b);
        return MLC_ERR_UNSUPPORTED;
      }
      if (!(supportedMask & (uint32_t(1) << index))) {
        snprintf(err, errSize,
                 "requires CPU feature '%s', which this CPU lacks",
                 kFeatureNames[index]);
        return MLC_ERR_UNSUPPORTED;
      }
    }
    p = *end ? end + 1 : end;
  }
  return MLC_OK;
}

// Exported: a model archive's entry points call it (model_abi.h).
extern "C" __attribute__((weak, visibility("default"))) int32_t
mlc_abi_check_cpu_features(const char *features) {
  char err[256];
  mlc_status status =
      checkCpuFeatures(features, hostCpuFeatureMask(), err, sizeof(err));
  if (status != MLC_OK)
    setError(status, "the model cannot run on this CPU: it %s", err);
  return status;
}
