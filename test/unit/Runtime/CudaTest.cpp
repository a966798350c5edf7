//===- CudaTest.cpp - the runtime's CUDA shim against a fake driver -------===//
//
// Hidden tests ([.cuda]): cuda.test runs them with fake_libcuda.c's
// libcuda.so.1 first on LD_LIBRARY_PATH, where "device" memory is host
// memory and the kernel runs on the CPU. They cover what a GPU-less machine
// cannot otherwise run: loading, the weight upload, host and device runs,
// and every driver failure turned into the runtime's error.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <dlfcn.h>

using namespace runtimetest;

namespace {

/// Makes the fake driver fail one kind of call while in scope.
struct FailDriver {
  explicit FailDriver(const char *what) { setenv("FAKE_CUDA_FAIL", what, 1); }
  ~FailDriver() { unsetenv("FAKE_CUDA_FAIL"); }
};

/// Device allocations the fake driver has not seen freed.
int outstandingAllocs() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(lib != nullptr);
  auto fn = reinterpret_cast<int (*)()>(
      dlsym(lib, "fake_cuda_outstanding_allocs"));
  REQUIRE(fn != nullptr);
  int n = fn();
  dlclose(lib);
  return n;
}

const int64_t kShape[] = {3};

mlc_status runAdd(const mlc_model *m, const float *x, float *y,
                  bool onDevice = false) {
  mlc_tensor in = {const_cast<float *>(x), MLC_F32, 1, kShape};
  mlc_tensor out = {y, MLC_F32, 1, kShape};
  return onDevice ? mlc_model_run_device(m, &in, 1, &out, 1)
                  : mlc_model_run(m, &in, 1, &out, 1);
}

} // namespace

TEST_CASE("a CUDA model runs its kernels through the driver", "[.cuda]") {
  const float x[3] = {1, 2, 3};
  {
    Model model(fakeModel("fake_cuda_model"));
    CHECK(std::string(mlc_model_device(model.m)) == "cuda");
    for (int run = 0; run < 2; ++run) {
      float y[3] = {0, 0, 0};
      REQUIRE(runAdd(model.m, x, y) == MLC_OK);
      CHECK(y[0] == 11);
      CHECK(y[1] == 22);
      CHECK(y[2] == 33);
    }
    // The weight once, the input, the output and the workspace: kept for
    // the next run, not allocated per run.
    CHECK(outstandingAllocs() == 4);

    // Device pointers are used as they are (the fake's are host memory).
    float y[3] = {0, 0, 0};
    REQUIRE(runAdd(model.m, x, y, /*onDevice=*/true) == MLC_OK);
    CHECK(y[2] == 33);
    // Validated like mlc_model_run.
    mlc_tensor in = {const_cast<float *>(x), MLC_I32, 1, kShape};
    mlc_tensor out = {y, MLC_F32, 1, kShape};
    CHECK(mlc_model_run_device(model.m, &in, 1, &out, 1) ==
          MLC_ERR_INVALID_ARGUMENT);
    CHECK(contains(mlc_last_error(), "expected dtype f32 but got i32"));
  }
  // Closing the model frees its device memory.
  CHECK(outstandingAllocs() == 0);
}

TEST_CASE("driver failures become the runtime's errors", "[.cuda]") {
  const float x[3] = {1, 2, 3};
  SECTION("no device") {
    FailDriver fail("nodevice");
    CHECK(mlc_model_open(fakeModel("fake_cuda_model").c_str()) == nullptr);
    CHECK(mlc_last_status() == MLC_ERR_UNSUPPORTED);
    CHECK(contains(mlc_last_error(), "is a CUDA model and cannot run here: no "
                                     "CUDA driver/device found (cuInit: "
                                     "CUDA_ERROR_NO_DEVICE"));
  }
  SECTION("no kernel image for the GPU") {
    FailDriver fail("load");
    CHECK(mlc_model_open(fakeModel("fake_cuda_model").c_str()) == nullptr);
    CHECK(mlc_last_status() == MLC_ERR_UNSUPPORTED);
    CHECK(contains(mlc_last_error(),
                   "cannot load the model's kernels on Fake GPU (sm_90)"));
  }
  SECTION("a failed launch") {
    Model model(fakeModel("fake_cuda_model"));
    float y[3] = {-1, -1, -1};
    FailDriver fail("launch");
    CHECK(runAdd(model.m, x, y) == MLC_ERR_INTERNAL);
    CHECK(contains(mlc_last_error(), "launching a kernel failed: "
                                     "CUDA_ERROR_FAKE"));
    CHECK(y[0] == -1); // nothing copied back
  }
  SECTION("out of device memory") {
    Model model(fakeModel("fake_cuda_model"));
    float y[3];
    FailDriver fail("alloc");
    CHECK(runAdd(model.m, x, y) == MLC_ERR_OUT_OF_MEMORY);
    CHECK(contains(mlc_last_error(), "cannot allocate 12 bytes on the GPU"));
  }
  SECTION("a fault found when waiting for the kernels") {
    Model model(fakeModel("fake_cuda_model"));
    float y[3];
    FailDriver fail("sync");
    CHECK(runAdd(model.m, x, y) == MLC_ERR_INTERNAL);
    CHECK(contains(mlc_last_error(), "the model's kernels failed on the GPU"));
  }
  // The failure does not stick: the next run of a fresh model works.
  Model model(fakeModel("fake_cuda_model"));
  float y[3];
  CHECK(runAdd(model.m, x, y) == MLC_OK);
  CHECK(y[1] == 22);
}

TEST_CASE("CPU models and the CUDA functions", "[runtime]") {
  Model model(fakeModel("fake_model"));
  CHECK(std::string(mlc_model_device(model.m)) == "cpu");
  CHECK(mlc_model_device(nullptr) == nullptr);
  CHECK(contains(mlc_last_error(), "model is NULL"));
  CHECK(mlc_model_run_device(model.m, nullptr, 0, nullptr, 0) ==
        MLC_ERR_INVALID_ARGUMENT);
  CHECK(contains(mlc_last_error(), "is not a CUDA model"));
}
