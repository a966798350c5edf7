/*===- fake_cuda_model.c - a hand-written CUDA model ---------------------===*
 *
 * What mlc-compile --target=cuda emits, reduced to one kernel: its
 * constructor registers the kernel blob, its entry takes device pointers
 * and calls the runtime's mgpu* functions and mlc_cuda_device_constant as
 * the generated host code does. With fake_libcuda.c the kernel "add" runs
 * on the host: y = x + w with the constant w = {10, 20, 30}.
 *   input x f32 [3], output y f32 [3], a 12-byte workspace (unused).
 *===---------------------------------------------------------------------===*/

#include "mlc/model_abi.h"

#include <stddef.h>
#include <stdint.h>

/* The runtime's shim (runtime/lib/Cuda.cpp). */
void *mgpuModuleLoad(void *blob, size_t size);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void mgpuLaunchKernel(void *fn, intptr_t gx, intptr_t gy, intptr_t gz,
                      intptr_t bx, intptr_t by, intptr_t bz, int32_t smem,
                      void *stream, void **params, void **extra, size_t n);
void *mlc_cuda_device_constant(const void *host, uint64_t bytes);

static char blob[] = "FAKEBLOB";
static void *module;
static const float weights[3] = {10, 20, 30};

__attribute__((constructor)) static void load(void) {
  module = mgpuModuleLoad(blob, sizeof(blob));
}
__attribute__((destructor)) static void unload(void) {
  mgpuModuleUnload(module);
}

uint32_t mlc_model_abi_version(void) { return MLC_MODEL_ABI_VERSION; }
const char *mlc_model_signature(void) { return "in f32 [3] x\nout f32 [3] y\n"; }
const char *mlc_model_cpu_features(void) { return ""; }
const char *mlc_model_device_kind(void) { return "cuda"; }
uint64_t mlc_model_workspace_bytes(void) { return 12; }

void mlc_model_entry(void **buffers, void *workspace) {
  (void)workspace;
  void *w = mlc_cuda_device_constant(weights, sizeof(weights));
  void *fn = mgpuModuleGetFunction(module, "add");
  void *stream = mgpuStreamCreate();
  int64_t n = 3;
  void *params[] = {&buffers[0], &w, &buffers[1], &n};
  mgpuLaunchKernel(fn, 1, 1, 1, 3, 1, 1, 0, stream, params, NULL, 4);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}
