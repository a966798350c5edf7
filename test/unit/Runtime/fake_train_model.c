/*===- fake_train_model.c - a hand-written trainable model ---------------===*
 *
 * Stands in for mlc-compile --train output (model_abi.h) in the runtime,
 * mlc-run and Python tests. FAKE_VARIANT selects the model:
 *   0  linear regression: pred = x @ w + b, loss = mean((pred - y)^2),
 *      plain SGD (lr 0.1). Variables: param w f32 [3,1], param b f32 [1],
 *      buffer ymean f32 [1] (ymean' = 0.9 ymean + 0.1 mean(y)), state step
 *      i64 []. Train batch x f32 [4,3], y f32 [4,1]; inference (reads w, b)
 *      x f32 [2,3] -> y f32 [2,1].
 *   1  softmax classifier: logits = x @ W + c, mean cross-entropy, SGD with
 *      momentum 0.9 (lr 0.5). Variables: param W f32 [4,3], param c f32 [3],
 *      state vW f32 [4,3], state vc f32 [3], state step i64 []. Train batch
 *      x f32 [8,4], label i64 [8]; inference x f32 [5,4] -> logits f32 [5,3].
 * Variants 2 to 14 are variant 0 with one thing broken for the runtime's
 * load-time checks (see the signature selection below). Variant 15 is
 * variant 0 with kernel tables, its entries bracketing their work with the
 * profiling hooks as compiled kernels do (one kernel in inference and init,
 * two in the train step). Every entry records the thread setting the
 * runtime passed (fake_threads.h).
 *===----------------------------------------------------------------------===*/

#include "fake_threads.h"
#include "mlc/model_abi.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_VARIANT
#define FAKE_VARIANT 0
#endif

#if FAKE_VARIANT == 15
/* The runtime's hooks (runtime/lib/Profile.cpp), hidden in this model.so. */
void mlc_profile_begin(int32_t kernel);
void mlc_profile_end(int32_t kernel);
#define KERNEL_BEGIN(k) mlc_profile_begin(k)
#define KERNEL_END(k) mlc_profile_end(k)
const char *mlc_model_kernels(void) { return "10 matmul+add predict\n"; }
const char *mlc_train_kernels(void) {
  return "24 matmul+sub+mul loss\n30 mul+sub sgd update\n";
}
const char *mlc_init_kernels(void) { return "0 fill init\n"; }
#else
#define KERNEL_BEGIN(k) ((void)0)
#define KERNEL_END(k) ((void)0)
#endif

/* The runtime promises 64-byte aligned variables and workspaces and outputs
 * that alias no input; crash loudly otherwise. */
static void checkAligned(const void *p) {
  if (!p || ((uintptr_t)p & 63) != 0)
    abort();
}

__attribute__((unused)) static void checkDistinct(void **buffers, int numInputs, int numOutputs) {
  for (int i = 0; i < numInputs; ++i)
    for (int j = 0; j < numOutputs; ++j)
      if (buffers[i] == buffers[numInputs + j])
        abort();
}

uint32_t mlc_model_abi_version(void) { return MLC_MODEL_ABI_VERSION; }
const char *mlc_model_cpu_features(void) { return "sse4.2"; }

#if FAKE_VARIANT == 1
/*===------------------------- softmax classifier -------------------------===*/

#define VARS                                                                   \
  "param f32 [4,3] W\nparam f32 [3] c\nstate f32 [4,3] vW\n"                   \
  "state f32 [3] vc\nstate i64 [] step\n"
#define UPDATES                                                                \
  "update f32 [4,3] W\nupdate f32 [3] c\nupdate f32 [4,3] vW\n"                \
  "update f32 [3] vc\nupdate i64 [] step\n"

const char *mlc_model_signature(void) {
  return "param f32 [4,3] W\nparam f32 [3] c\nin f32 [5,4] x\n"
         "out f32 [5,3] logits\n";
}
const char *mlc_train_signature(void) {
  return VARS "in f32 [8,4] x\nin i64 [8] label\nout f32 [] loss\n" UPDATES;
}
const char *mlc_init_signature(void) { return UPDATES; }
uint64_t mlc_model_workspace_bytes(void) { return 0; }
uint64_t mlc_train_workspace_bytes(void) { return 128; }
uint64_t mlc_init_workspace_bytes(void) { return 0; }

static void logits(const float *W, const float *c, const float *x, int n,
                   float *out) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      float s = c[k];
      for (int j = 0; j < 4; ++j)
        s += x[i * 4 + j] * W[j * 3 + k];
      out[i * 3 + k] = s;
    }
}

void mlc_model_entry(void **buffers, void *workspace) {
  (void)workspace;
  fakeEnter();
  checkAligned(buffers[0]);
  logits(buffers[0], buffers[1], buffers[2], 5, buffers[3]);
}

void mlc_init_entry(void **buffers, void *workspace) {
  (void)workspace;
  fakeEnter();
  float *W = buffers[0];
  for (int i = 0; i < 12; ++i)
    W[i] = 0.01f * (float)(i % 5 - 2);
  memset(buffers[1], 0, 3 * sizeof(float));
  memset(buffers[2], 0, 12 * sizeof(float));
  memset(buffers[3], 0, 3 * sizeof(float));
  *(int64_t *)buffers[4] = 0;
}

void mlc_train_entry(void **buffers, void *workspace) {
  fakeEnter();
  checkAligned(workspace);
  checkDistinct(buffers, 7, 6);
  const float *W = buffers[0], *c = buffers[1], *vW = buffers[2],
              *vc = buffers[3];
  const int64_t *step = buffers[4];
  const float *x = buffers[5];
  const int64_t *label = buffers[6];
  float *loss = buffers[7];
  float *newW = buffers[8], *newC = buffers[9], *newVW = buffers[10],
        *newVc = buffers[11];
  int64_t *newStep = buffers[12];
  float *z = workspace; /* 24 logits, then reused as dlogits */
  float gW[12] = {0}, gc[3] = {0};
  logits(W, c, x, 8, z);
  float total = 0;
  for (int i = 0; i < 8; ++i) {
    float *row = z + 3 * i;
    float m = fmaxf(row[0], fmaxf(row[1], row[2]));
    float sum = 0;
    for (int k = 0; k < 3; ++k)
      sum += expf(row[k] - m);
    int64_t y = label[i] < 0 || label[i] > 2 ? 0 : label[i];
    total += logf(sum) + m - row[y];
    for (int k = 0; k < 3; ++k) {
      float g = (expf(row[k] - m) / sum - (k == y ? 1.0f : 0.0f)) / 8.0f;
      gc[k] += g;
      for (int j = 0; j < 4; ++j)
        gW[j * 3 + k] += x[i * 4 + j] * g;
    }
  }
  *loss = total / 8.0f;
  for (int i = 0; i < 12; ++i) {
    newVW[i] = 0.9f * vW[i] + gW[i];
    newW[i] = W[i] - 0.5f * newVW[i];
  }
  for (int k = 0; k < 3; ++k) {
    newVc[k] = 0.9f * vc[k] + gc[k];
    newC[k] = c[k] - 0.5f * newVc[k];
  }
  *newStep = *step + 1;
}

#else
/*===---------------- linear regression and broken variants ---------------===*/

#define VARS                                                                   \
  "param f32 [3,1] w\nparam f32 [1] b\nbuffer f32 [1] ymean\n"                 \
  "state i64 [] step\n"
#define UPDATES                                                                \
  "update f32 [3,1] w\nupdate f32 [1] b\nupdate f32 [1] ymean\n"               \
  "update i64 [] step\n"
#define BATCH "in f32 [4,3] x\nin f32 [4,1] y\nout f32 [] loss\n"

static const char *inferSignature =
#if FAKE_VARIANT == 4
    "param f32 [3,1] w\nstate i64 [] step\nin f32 [2,3] x\nout f32 [2,1] y\n";
#elif FAKE_VARIANT == 7
    "param f32 [3,1] w\nparam f32 [1] bias\nin f32 [2,3] x\n"
    "out f32 [2,1] y\n";
#elif FAKE_VARIANT == 8
    "param f32 [1] b\nparam f32 [3,1] w\nin f32 [2,3] x\nout f32 [2,1] y\n";
#elif FAKE_VARIANT == 11
    "param f32 [3,1] w\nbuffer f32 [1] b\nin f32 [2,3] x\nout f32 [2,1] y\n";
#else
    "param f32 [3,1] w\nparam f32 [1] b\nin f32 [2,3] x\nout f32 [2,1] y\n";
#endif

__attribute__((unused)) static const char *trainSignature =
#if FAKE_VARIANT == 2
    VARS BATCH "update f32 [1] b\nupdate f32 [3,1] w\nupdate f32 [1] ymean\n"
               "update i64 [] step\n";
#elif FAKE_VARIANT == 6
    VARS "in f32 [4,3] x\nin f32 [4,1] y\nout f32 [1] loss\n" UPDATES;
#elif FAKE_VARIANT == 10
    "param f32 [3 w\n";
#elif FAKE_VARIANT == 13
    VARS BATCH "update f64 [3,1] w\nupdate f32 [1] b\nupdate f32 [1] ymean\n"
               "update i64 [] step\n";
#elif FAKE_VARIANT == 14
    VARS BATCH "update f32 [3,1] w\nupdate f32 [1] b\nupdate f32 [1] ymean\n";
#else
    VARS BATCH UPDATES;
#endif

__attribute__((unused)) static const char *initSignature =
#if FAKE_VARIANT == 3
    "update f32 [3] w\nupdate f32 [1] b\nupdate f32 [1] ymean\n"
    "update i64 [] step\n";
#elif FAKE_VARIANT == 9
    "in f32 [1] seed\n" UPDATES;
#else
    UPDATES;
#endif

const char *mlc_model_signature(void) { return inferSignature; }
uint64_t mlc_model_workspace_bytes(void) { return 64; }

void mlc_model_entry(void **buffers, void *workspace) {
  fakeEnter();
  checkAligned(workspace);
  checkAligned(buffers[0]);
  checkAligned(buffers[1]);
  const float *w = buffers[0], *b = buffers[1], *x = buffers[2];
  float *y = buffers[3];
  KERNEL_BEGIN(0);
  for (int i = 0; i < 2; ++i)
    y[i] = x[i * 3] * w[0] + x[i * 3 + 1] * w[1] + x[i * 3 + 2] * w[2] + b[0];
  KERNEL_END(0);
}

/* Variant 12 exports no train functions: a plain model whose inference
 * signature nevertheless reads variables. */
#if FAKE_VARIANT != 12
const char *mlc_train_signature(void) { return trainSignature; }
const char *mlc_init_signature(void) { return initSignature; }
uint64_t mlc_train_workspace_bytes(void) { return 100; }
uint64_t mlc_init_workspace_bytes(void) { return 0; }

#if FAKE_VARIANT != 5
void mlc_init_entry(void **buffers, void *workspace) {
  fakeEnter();
  if (workspace) /* size 0: the runtime passes NULL */
    abort();
  float *w = buffers[0];
  KERNEL_BEGIN(0);
  w[0] = 0.1f;
  w[1] = -0.2f;
  w[2] = 0.3f;
  *(float *)buffers[1] = 0;
  *(float *)buffers[2] = 0;
  *(int64_t *)buffers[3] = 0;
  KERNEL_END(0);
}
#endif

void mlc_train_entry(void **buffers, void *workspace) {
  fakeEnter();
  checkAligned(workspace);
  checkDistinct(buffers, 6, 5);
  for (int i = 0; i < 4; ++i) {
    checkAligned(buffers[i]);
    checkAligned(buffers[7 + i]);
  }
  const float *w = buffers[0], *b = buffers[1], *ymean = buffers[2];
  const int64_t *step = buffers[3];
  const float *x = buffers[4], *y = buffers[5];
  float *loss = buffers[6], *newW = buffers[7], *newB = buffers[8],
        *newYmean = buffers[9];
  int64_t *newStep = buffers[10];
  /* Per-sample dL/dpred through the workspace (100 bytes: 4 used). */
  float *g = workspace;
  float total = 0, ysum = 0;
  KERNEL_BEGIN(0);
  for (int i = 0; i < 4; ++i) {
    float pred = x[i * 3] * w[0] + x[i * 3 + 1] * w[1] + x[i * 3 + 2] * w[2] +
                 b[0];
    float d = pred - y[i];
    total += d * d;
    g[i] = 2.0f * d / 4.0f;
    ysum += y[i];
  }
  *loss = total / 4.0f;
  KERNEL_END(0);
  KERNEL_BEGIN(1);
  for (int j = 0; j < 3; ++j) {
    float dw = 0;
    for (int i = 0; i < 4; ++i)
      dw += g[i] * x[i * 3 + j];
    newW[j] = w[j] - 0.1f * dw;
  }
  newB[0] = b[0] - 0.1f * (g[0] + g[1] + g[2] + g[3]);
  newYmean[0] = 0.9f * ymean[0] + 0.1f * (ysum / 4.0f);
  *newStep = *step + 1;
  KERNEL_END(1);
}
#endif
#endif
