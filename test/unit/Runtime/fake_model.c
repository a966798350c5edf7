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
 *   6  variant 0 linked as a model built before mlc_abi_set_num_threads
 *      existed (old_model_abi.map hides the symbol)
 *   7  input x f32 [1000]; outputs y = 2 * x, computed in a parallel loop
 *      through the runtime's libomp entry points as compiled kernels call
 *      them, and threads i32 [] = the size of the team that ran it
 *   8  variant 0 with a kernel table of two kernels, bracketed with the
 *      runtime's profiling hooks as compiled kernels are: "add" (y, after
 *      about a millisecond of busy waiting) and "compare" (positive, total)
 * Except for variant 7 (which uses the runtime's own), the model records the
 * thread setting the runtime passes before each call (fake_threads.h).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */

#include "mlc/model_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FAKE_VARIANT
#define FAKE_VARIANT 0
#endif

#if FAKE_VARIANT != 7
#include "fake_threads.h"
#endif

#if FAKE_VARIANT == 8
#include <time.h>

/* The runtime's hooks (runtime/lib/Profile.cpp), hidden in this model.so. */
void mlc_profile_begin(int32_t kernel);
void mlc_profile_end(int32_t kernel);
#define KERNEL_BEGIN(k) mlc_profile_begin(k)
#define KERNEL_END(k) mlc_profile_end(k)

/* The name of kernel 0 has the characters JSON output must escape. */
const char *mlc_model_kernels(void) {
  return "12 add row add 'a'+\"b\"\n9 compare positive\n";
}

/* Time the profile must see: about a millisecond. */
static void spinMs(void) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do
    clock_gettime(CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000000000L +
             (now.tv_nsec - start.tv_nsec) <
         1000000L);
}
#else
#define KERNEL_BEGIN(k) ((void)0)
#define KERNEL_END(k) ((void)0)
#endif

#define WORKSPACE_BYTES 100 /* deliberately not a multiple of 64 */

uint32_t mlc_model_abi_version(void) {
  return FAKE_VARIANT == 1 ? 99 : MLC_MODEL_ABI_VERSION;
}

#if FAKE_VARIANT == 7
/* The runtime's libomp entry points (ThreadPool.h): hidden, but linked into
 * this same model.so, exactly as for compiled kernels. */
typedef void (*kmpc_micro)(int32_t *, int32_t *, ...);
int32_t __kmpc_global_thread_num(void *ident);
void __kmpc_fork_call(void *ident, int32_t argc, kmpc_micro microtask, ...);
void __kmpc_for_static_init_8u(void *ident, int32_t gtid, int32_t schedtype,
                               int32_t *plastiter, uint64_t *plower,
                               uint64_t *pupper, int64_t *pstride, int64_t incr,
                               int64_t chunk);
void __kmpc_for_static_fini(void *ident, int32_t gtid);
void __kmpc_barrier(void *ident, int32_t gtid);

#define PARALLEL_N 1000

struct ParallelArgs {
  const float *x;
  float *y;
  int32_t members;
};

/* What OpenMPIRBuilder generates for a parallel loop over [0, N). */
static void parallelBody(int32_t *gtidAddr, int32_t *btid, void *p) {
  (void)gtidAddr;
  (void)btid;
  struct ParallelArgs *args = (struct ParallelArgs *)p;
  int32_t gtid = __kmpc_global_thread_num(NULL);
  uint64_t lower = 0, upper = PARALLEL_N - 1;
  int64_t stride = 1;
  int32_t last = 0;
  __kmpc_for_static_init_8u(NULL, gtid, 34, &last, &lower, &upper, &stride, 1,
                            0);
  for (uint64_t i = 0; i < upper - lower + 1; ++i)
    args->y[lower + i] = 2.0f * args->x[lower + i];
  __kmpc_for_static_fini(NULL, gtid);
  __atomic_fetch_add(&args->members, 1, __ATOMIC_RELAXED);
  __kmpc_barrier(NULL, __kmpc_global_thread_num(NULL));
}
#endif

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
#elif FAKE_VARIANT == 7
  return "in f32 [1000] x\nout f32 [1000] y\nout i32 [] threads\n";
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
#if FAKE_VARIANT != 7
  fakeEnter();
#endif
  /* The runtime promises a 64-byte aligned workspace; crash loudly if not. */
  if (!workspace || ((uintptr_t)workspace & 63) != 0)
    abort();
#if FAKE_VARIANT == 7
  struct ParallelArgs args = {(const float *)buffers[0], (float *)buffers[1],
                              0};
  /* Through void (*)(void): the cast the generated code makes implicitly. */
  __kmpc_fork_call(NULL, 1, (kmpc_micro)(void (*)(void))parallelBody, &args);
  *(int32_t *)buffers[2] = args.members;
#elif FAKE_VARIANT == 5
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
  KERNEL_BEGIN(0);
#if FAKE_VARIANT == 8
  spinMs();
#endif
  for (int j = 0; j < 3; ++j) {
    row[j] = (float)b[j];
    sum += b[j];
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      y[i * 3 + j] = a[i * 3 + j] + row[j];
  KERNEL_END(0);
  KERNEL_BEGIN(1);
  for (int i = 0; i < 6; ++i)
    positive[i] = y[i] > 0;
  *total = (int32_t)sum;
  KERNEL_END(1);
#endif
}
#endif
