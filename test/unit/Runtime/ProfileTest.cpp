//===- ProfileTest.cpp - tests of the runtime's profiling API -------------===//
//
// Runs the fake models whose entries bracket their work with the profiling
// hooks as compiled kernels do (fake_model_profiled, fake_train_profiled):
// the kernel tables, the counters, concurrency, and models without a table.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "TestUtil.h"
#include "mlc/runtime.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace runtimetest;

namespace {

struct Times {
  std::vector<uint64_t> ns, calls;
};

Times times(const mlc_model *m) {
  int32_t n = mlc_model_num_kernels(m);
  Times t{std::vector<uint64_t>(size_t(n)), std::vector<uint64_t>(size_t(n))};
  INFO(mlc_last_error());
  REQUIRE(mlc_model_kernel_times(m, t.ns.data(), t.calls.data(), n) == MLC_OK);
  return t;
}

void requireInfo(const mlc_model *m, int32_t i, const char *name,
                 const char *ops, const char *entry, uint64_t flops) {
  mlc_kernel_info info;
  INFO("kernel " << i << ": " << mlc_last_error());
  REQUIRE(mlc_model_kernel_info(m, i, &info) == MLC_OK);
  CHECK(std::string(info.name) == name);
  CHECK(std::string(info.ops) == ops);
  CHECK(std::string(info.entry) == entry);
  CHECK(info.flops == flops);
}

} // namespace

TEST_CASE("a model without a kernel table cannot be profiled", "[profile]") {
  Model model(fakeModel("fake_model"));
  CHECK(mlc_model_num_kernels(model.m) == 0);
  CHECK_ERROR(mlc_model_set_profiling(model.m, 1), MLC_ERR_UNSUPPORTED,
              "has no kernel table");
  CHECK(mlc_model_profiling(model.m) == 0);
  CHECK(mlc_model_set_profiling(model.m, 0) == MLC_OK);
  CHECK(mlc_model_kernel_times(model.m, nullptr, nullptr, 0) == MLC_OK);
  CHECK(mlc_model_reset_profile(model.m) == MLC_OK);
  FakeRun run;
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(run.outputsCorrect());
}

TEST_CASE("kernel tables describe the kernels", "[profile]") {
  Model model(fakeModel("fake_model_profiled"));
  REQUIRE(mlc_model_num_kernels(model.m) == 2);
  requireInfo(model.m, 0, "row add 'a'+\"b\"", "add", "run", 12);
  requireInfo(model.m, 1, "positive", "compare", "run", 9);
  mlc_kernel_info info;
  CHECK_ERROR(mlc_model_kernel_info(model.m, 2, &info),
              MLC_ERR_INVALID_ARGUMENT, "kernel index 2 out of range");
  CHECK_ERROR(mlc_model_kernel_info(model.m, -1, &info),
              MLC_ERR_INVALID_ARGUMENT, "out of range");
  CHECK_ERROR(mlc_model_kernel_info(model.m, 0, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "NULL");
  CHECK_ERROR(mlc_model_kernel_info(nullptr, 0, &info),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK(mlc_model_num_kernels(nullptr) == -1);
  CHECK(mlc_model_profiling(nullptr) == -1);
  CHECK_ERROR(mlc_model_set_profiling(nullptr, 1), MLC_ERR_INVALID_ARGUMENT,
              "model is NULL");
  CHECK_ERROR(mlc_model_reset_profile(nullptr), MLC_ERR_INVALID_ARGUMENT,
              "model is NULL");
  uint64_t ns[2];
  CHECK_ERROR(mlc_model_kernel_times(model.m, ns, nullptr, 3),
              MLC_ERR_INVALID_ARGUMENT, "expected room for 2 kernels");
  CHECK_ERROR(mlc_model_kernel_times(model.m, nullptr, nullptr, 2),
              MLC_ERR_INVALID_ARGUMENT, "both NULL");
}

TEST_CASE("profiled runs add up kernel times and calls", "[profile]") {
  Model model(fakeModel("fake_model_profiled"));
  FakeRun run;
  // Off by default: runs leave the counters alone.
  CHECK(mlc_model_profiling(model.m) == 0);
  REQUIRE(run.run(model.m) == MLC_OK);
  Times t = times(model.m);
  CHECK(t.calls == std::vector<uint64_t>{0, 0});
  CHECK(t.ns == std::vector<uint64_t>{0, 0});

  REQUIRE(mlc_model_set_profiling(model.m, 1) == MLC_OK);
  CHECK(mlc_model_profiling(model.m) == 1);
  for (int r = 0; r < 5; ++r) {
    run.resetOutputs();
    REQUIRE(run.run(model.m) == MLC_OK);
    CHECK(run.outputsCorrect());
  }
  t = times(model.m);
  CHECK(t.calls == std::vector<uint64_t>{5, 5});
  // Kernel 0 waits about 1 ms per call; kernel 1 does almost nothing.
  CHECK(t.ns[0] >= 5000000u);
  CHECK(t.ns[1] < t.ns[0] / 10);
  // Either array may be left out.
  std::vector<uint64_t> calls(2);
  CHECK(mlc_model_kernel_times(model.m, nullptr, calls.data(), 2) == MLC_OK);
  CHECK(calls == t.calls);

  REQUIRE(mlc_model_set_profiling(model.m, 0) == MLC_OK);
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(times(model.m).calls == std::vector<uint64_t>{5, 5});
  REQUIRE(mlc_model_reset_profile(model.m) == MLC_OK);
  t = times(model.m);
  CHECK(t.calls == std::vector<uint64_t>{0, 0});
  CHECK(t.ns == std::vector<uint64_t>{0, 0});
}

TEST_CASE("profiling is per model", "[profile]") {
  // Two handles of one model.so share its runtime copy, not their counters.
  Model a(fakeModel("fake_model_profiled")),
      b(fakeModel("fake_model_profiled"));
  REQUIRE(mlc_model_set_profiling(a.m, 1) == MLC_OK);
  FakeRun run;
  REQUIRE(run.run(a.m) == MLC_OK);
  REQUIRE(run.run(b.m) == MLC_OK);
  REQUIRE(run.run(b.m) == MLC_OK);
  CHECK(times(a.m).calls == std::vector<uint64_t>{1, 1});
  CHECK(times(b.m).calls == std::vector<uint64_t>{0, 0});
}

TEST_CASE("concurrent profiled runs neither crash nor lose calls",
          "[profile]") {
  Model model(fakeModel("fake_model_profiled"));
  REQUIRE(mlc_model_set_profiling(model.m, 1) == MLC_OK);
  const int kThreads = 4, kRuns = 10;
  std::atomic<int> failures{0};
  // kThreads threads of kRuns checked runs each.
  auto runConcurrently = [&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&] {
        for (int r = 0; r < kRuns; ++r) {
          FakeRun run{float(r)};
          if (run.run(model.m) != MLC_OK || !run.outputsCorrect())
            ++failures;
        }
      });
    for (std::thread &t : threads)
      t.join();
  };
  runConcurrently();
  CHECK(failures == 0);
  CHECK(times(model.m).calls == std::vector<uint64_t>{40, 40});

  // Switching profiling on and off and resetting while runs are in flight
  // is safe; only the figures of runs caught in between are partial.
  std::atomic<bool> stop{false};
  std::thread toggler([&] {
    for (int i = 0; !stop; ++i) {
      mlc_model_set_profiling(model.m, i % 2);
      if (i % 3 == 0)
        mlc_model_reset_profile(model.m);
      std::this_thread::yield();
    }
  });
  runConcurrently();
  stop = true;
  toggler.join();
  CHECK(failures == 0);
  Times t = times(model.m);
  CHECK(t.calls[0] <= 40);
  CHECK(t.calls[1] <= 40);
}

TEST_CASE("train steps and init have kernel tables of their own",
          "[profile][train]") {
  Model model(fakeModel("fake_train_profiled"));
  REQUIRE(mlc_model_num_kernels(model.m) == 4);
  requireInfo(model.m, 0, "predict", "matmul+add", "run", 10);
  requireInfo(model.m, 1, "loss", "matmul+sub+mul", "train", 24);
  requireInfo(model.m, 2, "sgd update", "mul+sub", "train", 30);
  requireInfo(model.m, 3, "init", "fill", "init", 0);
  // Init ran at open, before profiling could be on.
  CHECK(times(model.m).calls == std::vector<uint64_t>{0, 0, 0, 0});

  REQUIRE(mlc_model_set_profiling(model.m, 1) == MLC_OK);
  float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, y[4] = {1, 2, 3, 4};
  int64_t xs[] = {4, 3}, ys[] = {4, 1};
  mlc_tensor batch[2] = {{x, MLC_F32, 2, xs}, {y, MLC_F32, 2, ys}};
  for (int s = 0; s < 3; ++s)
    REQUIRE(mlc_model_train_step(model.m, batch, 2, nullptr) == MLC_OK);
  float in[6] = {}, out[2];
  int64_t is[] = {2, 3}, os[] = {2, 1};
  mlc_tensor input = {in, MLC_F32, 2, is}, output = {out, MLC_F32, 2, os};
  REQUIRE(mlc_model_run(model.m, &input, 1, &output, 1) == MLC_OK);
  REQUIRE(mlc_model_reset_variables(model.m) == MLC_OK);
  CHECK(times(model.m).calls == std::vector<uint64_t>{1, 3, 3, 1});
}

TEST_CASE("kernel table parsing", "[profile]") {
  using mlc::rt::Family;
  using mlc::rt::KernelDesc;
  auto parse = [](const char *text, std::string &err) {
    KernelDesc k[4] = {};
    char buf[256] = "";
    bool ok = mlc::rt::parseKernelTable(text, Family::Run, k, buf, sizeof(buf));
    err = buf;
    for (KernelDesc &d : k) {
      free(d.name);
      free(d.ops);
    }
    return ok;
  };
  std::string err;
  CHECK(parse("", err));
  CHECK(parse("0 transpose t\n18446744073709551615 conv2d c 1 + c 2\n", err));
  CHECK(parse("7 add \n", err)); // an empty name
  CHECK_FALSE(parse("7 add x", err));
  CHECK(contains(err, "line 1 does not end with a newline"));
  CHECK_FALSE(parse("1 add a\nx add b\n", err));
  CHECK(contains(err, "line 2: expected '<flops> <ops> <name>' but got "
                      "'x add b'"));
  CHECK_FALSE(parse("12 add\n", err));
  CHECK(contains(err, "line 1: expected"));
  CHECK_FALSE(parse("12  add x\n", err));
  CHECK_FALSE(parse("18446744073709551616 add x\n", err));
  CHECK(contains(err, "out of range"));
}
