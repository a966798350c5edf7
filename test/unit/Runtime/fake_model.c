/*===- fake_model.c - a hand-written model implementing the model ABI ----===*
 *
 * Stands in for mlc-compile output in the runtime tests. FAKE_VARIANT selects
 * a broken variant to exercise the runtime's load-time checks:
 *   0  inputs a f32 [2,3], b i64 [3]; outputs y f32 [2,3] = a + b (per row),
 *      positive bool [2,3] = y > 0, total i32 [] = sum(b)
 *   1  wrong ABI version
 *   2  malformed signature
 *   3  no mlc_model_entry symbol
 *   4  requires an unknown CPU feature
 *   5  40 scalar f32 inputs x0..x39, output sum f32 [] (more buffers than
 *      the runtime keeps on its stack)
 *===----------------------------------------------------------------------===*/

#include "mlc/model_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FAKE_VARIANT
#define FAKE_VARIANT 0
#endif

#define WORKSPACE_BYTES 100 /* deliberately not a multiple of 64 */

uint32_t mlc_model_abi_version(void) {
  return FAKE_VARIANT == 1 ? 99 : MLC_MODEL_ABI_VERSION;
}

#if FAKE_VARIANT == 5
static char wideSignature[2048];

__attribute__((constructor)) static void buildWideSignature(void) {
  size_t len = 0;
  for (int i = 0; i < 40; ++i)
    len += (size_t)snprintf(wideSignature + len, sizeof(wideSignature) - len,
                            "in f32 [] x%d\n", i);
  snprintf(wideSignature + len, sizeof(wideSignature) - len,
           "out f32 [] sum\n");
}
#endif

const char *mlc_model_signature(void) {
#if FAKE_VARIANT == 2
  return "in f32 [2,3] a\nin i64 [3 b\nout f32 [2,3] y\n";
#elif FAKE_VARIANT == 5
  return wideSignature;
#else
  return "in f32 [2,3] a\n"
         "in i64 [3] b\n"
         "out f32 [2,3] y\n"
         "out bool [2,3] positive\n"
         "out i32 [] total\n";
#endif
}

const char *mlc_model_cpu_features(void) {
#if FAKE_VARIANT == 4
  return "sse4.2,quantum-tunneling";
#else
  return "sse4.2";
#endif
}

uint64_t mlc_model_workspace_bytes(void) { return WORKSPACE_BYTES; }

#if FAKE_VARIANT != 3
void mlc_model_entry(void **buffers, void *workspace) {
  /* The runtime promises a 64-byte aligned workspace; crash loudly if not. */
  if (!workspace || ((uintptr_t)workspace & 63) != 0)
    abort();
#if FAKE_VARIANT == 5
  float sum = 0;
  for (int i = 0; i < 40; ++i)
    sum += *(const float *)buffers[i];
  *(float *)buffers[40] = sum;
#else
  const float *a = (const float *)buffers[0];
  const int64_t *b = (const int64_t *)buffers[1];
  float *y = (float *)buffers[2];
  uint8_t *positive = (uint8_t *)buffers[3];
  int32_t *total = (int32_t *)buffers[4];
  /* Go through the workspace so that a too small or shared one shows up. */
  float *row = (float *)workspace;
  int64_t sum = 0;
  for (int j = 0; j < 3; ++j) {
    row[j] = (float)b[j];
    sum += b[j];
  }
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      y[i * 3 + j] = a[i * 3 + j] + row[j];
      positive[i * 3 + j] = y[i * 3 + j] > 0;
    }
  }
  *total = (int32_t)sum;
#endif
}
#endif
