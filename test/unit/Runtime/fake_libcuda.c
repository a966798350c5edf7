/*===- fake_libcuda.c - a CUDA driver stand-in for the runtime tests -----===*
 *
 * Built as libcuda.so.1 in its own directory; tests put that directory on
 * LD_LIBRARY_PATH so the runtime's dlopen("libcuda.so.1") finds it. "Device"
 * memory is host memory (a CUdeviceptr is the pointer), modules are accepted
 * as they are, and kernels are host functions looked up by name:
 *   add(const float *x, const float *w, float *y, int64_t n): y = x + w
 * run at launch time over the grid's x threads. Every call is counted and
 * checked; FAKE_CUDA_FAIL=<what> makes one call fail, to test the runtime's
 * error paths: nodevice (cuInit), alloc, load, launch, sync.
 *===---------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static int fails(const char *what) {
  const char *f = getenv("FAKE_CUDA_FAIL");
  return f && strcmp(f, what) == 0;
}

static int initialized, contextCurrent, outstandingAllocs;

CUresult cuInit(unsigned flags) {
  (void)flags;
  if (fails("nodevice"))
    return 100; /* CUDA_ERROR_NO_DEVICE */
  initialized = 1;
  return 0;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return initialized ? 0 : 3;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? 0 : 101;
}
CUresult cuDeviceGetName(char *name, int len, int d) {
  (void)d;
  strncpy(name, "Fake GPU", (size_t)len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  *v = attr == 75 ? 9 : 0;
  return 0;
}
static int primary;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  (void)d;
  *ctx = &primary;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int d) {
  (void)d;
  return 0;
}
CUresult cuCtxSetCurrent(void *ctx) {
  contextCurrent = ctx == &primary;
  return 0;
}
CUresult cuCtxSynchronize(void) {
  if (!contextCurrent)
    return 201; /* CUDA_ERROR_INVALID_CONTEXT */
  return fails("sync") ? 700 /* CUDA_ERROR_ILLEGAL_ADDRESS */ : 0;
}
static int module;
CUresult cuModuleLoadData(void **m, const void *image) {
  if (fails("load") || memcmp(image, "FAKEBLOB", 8) != 0)
    return 209; /* CUDA_ERROR_NO_BINARY_FOR_GPU */
  *m = &module;
  return 0;
}
CUresult cuModuleUnload(void *m) { return m == &module ? 0 : 400; }
typedef void (*Kernel)(void **params, unsigned thread);
static void add(void **params, unsigned i) {
  const float *x = *(const float **)params[0];
  const float *w = *(const float **)params[1];
  float *y = *(float **)params[2];
  int64_t n = *(int64_t *)params[3];
  if ((int64_t)i < n)
    y[i] = x[i] + w[i];
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  if (m != &module)
    return 400; /* CUDA_ERROR_INVALID_HANDLE */
  if (strcmp(name, "add") != 0)
    return 500; /* CUDA_ERROR_NOT_FOUND */
  *f = (void *)add;
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)gy, (void)gz, (void)by, (void)bz, (void)smem, (void)stream;
  if (extra || !contextCurrent)
    return 1;
  if (fails("launch"))
    return 701; /* CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES */
  for (unsigned i = 0; i < gx * bx; ++i)
    ((Kernel)f)(params, i);
  return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  if (fails("alloc") || !contextCurrent)
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *p = (CUdeviceptr)(uintptr_t)malloc(bytes ? bytes : 1);
  ++outstandingAllocs;
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  free((void *)(uintptr_t)p);
  --outstandingAllocs;
  return 0;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n) {
  memcpy((void *)(uintptr_t)d, h, n);
  return 0;
}
CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n) {
  memcpy(h, (const void *)(uintptr_t)d, n);
  return 0;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_FAKE";
  return 0;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  (void)r;
  *s = "injected by fake_libcuda";
  return 0;
}
/* For the tests: device allocations not freed yet. */
int fake_cuda_outstanding_allocs(void) { return outstandingAllocs; }
