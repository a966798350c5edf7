//===- RuntimeTest.cpp - tests of the mlc runtime C API -------------------===//
//
// Runs the hand-written fake models (fake_model.c) through the runtime:
// loading, introspection, correct runs, every rejected call, and concurrency.
//
//===----------------------------------------------------------------------===//

#include "mlc/runtime.h"
#include "CpuFeatures.h"
#include "Signature.h"
#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace runtimetest;

TEST_CASE("dtype helpers", "[runtime]") {
  const mlc_dtype all[] = {MLC_F32, MLC_F64, MLC_F16, MLC_I8,   MLC_I16,
                           MLC_I32, MLC_I64, MLC_U8,  MLC_BOOL, MLC_BF16,
                           MLC_U16, MLC_U32, MLC_U64};
  const size_t sizes[] = {4, 8, 2, 1, 2, 4, 8, 1, 1, 2, 2, 4, 8};
  static_assert(std::size(all) == std::size(sizes));
  for (size_t i = 0; i < std::size(all); ++i) {
    CHECK(mlc_dtype_size(all[i]) == sizes[i]);
    CHECK(mlc_dtype_from_name(mlc_dtype_name(all[i])) == all[i]);
  }
  CHECK(std::string(mlc_dtype_name(MLC_BOOL)) == "bool");
  CHECK(std::string(mlc_dtype_name(MLC_F32)) == "f32");
  // The enum values are ABI: new dtypes only ever append.
  CHECK(int(MLC_BOOL) == 9);
  CHECK(int(MLC_BF16) == 10);
  CHECK(int(MLC_U16) == 11);
  CHECK(int(MLC_U32) == 12);
  CHECK(int(MLC_U64) == 13);
  CHECK(int(MLC_DTYPE_LAST) == 13);
  CHECK(std::string(mlc_dtype_name(MLC_U64)) == "u64");
  CHECK(mlc_dtype_from_name("u32") == MLC_U32);
  CHECK(mlc_dtype_from_name("uint32") == MLC_DTYPE_INVALID);
  CHECK(std::string(mlc_dtype_name(MLC_BF16)) == "bf16");
  CHECK(std::string(mlc_dtype_name(MLC_F64)) == "f64");
  CHECK(std::string(mlc_dtype_name(MLC_F16)) == "f16");
  CHECK(std::string(mlc_dtype_name(MLC_I8)) == "i8");
  CHECK(std::string(mlc_dtype_name(MLC_I16)) == "i16");
  CHECK(mlc_dtype_from_name("bf16") == MLC_BF16);
  CHECK(mlc_dtype_from_name("f64") == MLC_F64);
  CHECK(mlc_dtype_from_name("i8") == MLC_I8);
  CHECK(mlc_dtype_from_name("i16") == MLC_I16);
  CHECK(mlc_dtype_from_name("bfloat16") == MLC_DTYPE_INVALID);
  CHECK(std::string(mlc_dtype_name(mlc_dtype(14))) == "invalid");
  CHECK(std::string(mlc_dtype_name(MLC_DTYPE_INVALID)) == "invalid");
  CHECK(std::string(mlc_dtype_name(mlc_dtype(42))) == "invalid");
  CHECK(mlc_dtype_size(mlc_dtype(42)) == 0);
  CHECK(mlc_dtype_from_name("float32") == MLC_DTYPE_INVALID);
  CHECK(mlc_dtype_from_name("") == MLC_DTYPE_INVALID);
  CHECK(mlc_dtype_from_name(nullptr) == MLC_DTYPE_INVALID);
  CHECK(mlc_runtime_api_version() == MLC_RUNTIME_API_VERSION);
}

TEST_CASE("introspection of a loaded model", "[runtime]") {
  Model model(fakeModel("fake_model"));
  const mlc_model *m = model.m;
  REQUIRE(mlc_model_num_inputs(m) == 2);
  REQUIRE(mlc_model_num_outputs(m) == 3);
  CHECK(mlc_model_workspace_size(m) == 100);

  mlc_tensor_info info;
  REQUIRE(mlc_model_input_info(m, 0, &info) == MLC_OK);
  CHECK(std::string(info.name) == "a");
  CHECK(info.dtype == MLC_F32);
  REQUIRE(info.rank == 2);
  CHECK(info.shape[0] == 2);
  CHECK(info.shape[1] == 3);
  CHECK(info.num_elements == 6);
  CHECK(info.size_bytes == 24);

  REQUIRE(mlc_model_input_info(m, 1, &info) == MLC_OK);
  CHECK(std::string(info.name) == "b");
  CHECK(info.dtype == MLC_I64);
  CHECK(info.size_bytes == 24);

  REQUIRE(mlc_model_output_info(m, 1, &info) == MLC_OK);
  CHECK(std::string(info.name) == "positive");
  CHECK(info.dtype == MLC_BOOL);
  CHECK(info.size_bytes == 6);

  REQUIRE(mlc_model_output_info(m, 2, &info) == MLC_OK);
  CHECK(std::string(info.name) == "total");
  CHECK(info.rank == 0);
  CHECK(info.num_elements == 1);
  CHECK(info.size_bytes == 4);

  CHECK(mlc_model_find_input(m, "b") == 1);
  CHECK(mlc_model_find_output(m, "total") == 2);
  CHECK(mlc_model_find_output(m, "a") == -1);
  CHECK(contains(mlc_last_error(), "no output named 'a'"));
  CHECK(mlc_model_find_input(m, "nope") == -1);
  CHECK(contains(mlc_last_error(), "no input named 'nope'"));
  CHECK(mlc_model_find_input(m, nullptr) == -1);
  CHECK(mlc_model_find_input(nullptr, "a") == -1);
  CHECK(contains(mlc_last_error(), "model is NULL"));

  CHECK_ERROR(mlc_model_input_info(m, 2, &info), MLC_ERR_INVALID_ARGUMENT,
              "input index 2 out of range (the model has 2 inputs)");
  CHECK_ERROR(mlc_model_output_info(m, -1, &info), MLC_ERR_INVALID_ARGUMENT,
              "output index -1 out of range");
  CHECK_ERROR(mlc_model_input_info(m, 0, nullptr), MLC_ERR_INVALID_ARGUMENT,
              "info pointer is NULL");
  CHECK_ERROR(mlc_model_output_info(nullptr, 0, &info),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK(mlc_model_num_inputs(nullptr) == -1);
  CHECK(mlc_model_num_outputs(nullptr) == -1);
  CHECK(mlc_model_workspace_size(nullptr) == 0);
  CHECK(mlc_last_status() == MLC_ERR_INVALID_ARGUMENT);
}

TEST_CASE("runs compute the right values", "[runtime]") {
  Model model(fakeModel("fake_model"));
  FakeRun run;
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(run.outputsCorrect());
  CHECK(run.y[0] == -7.5f);
  CHECK(run.positive[4] == 1);
  CHECK(run.total == 15);

  // Adjacent (touching, not overlapping) buffers are fine.
  alignas(64) float buffer[12];
  for (int i = 0; i < 6; ++i)
    buffer[i] = float(i);
  run.inputs[0].data = buffer;
  run.outputs[0].data = buffer + 6;
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(buffer[6 + 4] == 4.0f + 5.0f);
}

TEST_CASE("models with many buffers", "[runtime]") {
  Model model(fakeModel("fake_model_wide"));
  REQUIRE(mlc_model_num_inputs(model.m) == 40);
  float values[40], sum = -1;
  std::vector<mlc_tensor> inputs;
  for (int i = 0; i < 40; ++i) {
    values[i] = float(i);
    inputs.push_back({&values[i], MLC_F32, 0, nullptr});
  }
  mlc_tensor output = {&sum, MLC_F32, 0, nullptr};
  REQUIRE(mlc_model_run(model.m, inputs.data(), 40, &output, 1) == MLC_OK);
  CHECK(sum == 780.0f);
}

TEST_CASE("invalid runs are rejected before writing anything", "[runtime]") {
  Model model(fakeModel("fake_model"));
  const mlc_model *m = model.m;
  FakeRun run;
  auto expectRejected = [&](mlc_status status, const char *message) {
    INFO("last error: " << mlc_last_error());
    CHECK(status == MLC_ERR_INVALID_ARGUMENT);
    CHECK(contains(mlc_last_error(), message));
    CHECK(run.outputsUntouched());
    run.reset();
  };

  expectRejected(mlc_model_run(nullptr, run.inputs, 2, run.outputs, 3),
                 "model is NULL");
  expectRejected(mlc_model_run(m, run.inputs, 1, run.outputs, 3),
                 "expected 2 inputs but got 1");
  expectRejected(mlc_model_run(m, run.inputs, 2, run.outputs, 4),
                 "expected 3 outputs but got 4");
  expectRejected(mlc_model_run(m, nullptr, 2, run.outputs, 3),
                 "inputs array is NULL");
  expectRejected(mlc_model_run(m, run.inputs, 2, nullptr, 3),
                 "outputs array is NULL");

  run.inputs[1].data = nullptr;
  expectRejected(run.run(m), "input 1 ('b'): data is NULL");
  run.outputs[2].data = nullptr;
  expectRejected(run.run(m), "output 2 ('total'): data is NULL");

  run.inputs[0].dtype = MLC_F64;
  expectRejected(run.run(m), "input 0 ('a'): expected dtype f32 but got f64");
  run.outputs[1].dtype = mlc_dtype(42);
  expectRejected(run.run(m),
                 "output 1 ('positive'): expected dtype bool but got invalid "
                 "(42)");

  run.inputs[1].rank = 2;
  expectRejected(run.run(m), "input 1 ('b'): expected rank 1 but got 2");
  run.outputs[2].rank = 1;
  run.outputs[2].shape = kShapeB;
  expectRejected(run.run(m), "output 2 ('total'): expected rank 0 but got 1");
  run.inputs[0].shape = nullptr;
  expectRejected(run.run(m), "input 0 ('a'): shape is NULL");

  const int64_t wrongShape[] = {2, 4};
  run.inputs[0].shape = wrongShape;
  expectRejected(run.run(m),
                 "input 0 ('a'): expected shape [2,3] but got [2,4]");
  const int64_t transposed[] = {3, 2};
  run.outputs[0].shape = transposed;
  expectRejected(run.run(m),
                 "output 0 ('y'): expected shape [2,3] but got [3,2]");

  // Outputs must not alias inputs or each other, even partially.
  run.outputs[0].data = run.a;
  expectRejected(run.run(m), "output 0 ('y') overlaps input 0 ('a')");
  alignas(64) float shared[16] = {};
  run.inputs[0].data = shared;
  run.outputs[0].data = shared + 5;
  expectRejected(run.run(m), "output 0 ('y') overlaps input 0 ('a')");
  run.outputs[1].data = reinterpret_cast<uint8_t *>(run.y) + 20;
  expectRejected(run.run(m), "output 1 ('positive') overlaps output 0 ('y')");
  run.outputs[2].data = run.b;
  expectRejected(run.run(m), "output 2 ('total') overlaps input 1 ('b')");

  // The model still works after all that.
  REQUIRE(run.run(m) == MLC_OK);
  CHECK(run.outputsCorrect());
}

TEST_CASE("loading failures name the file and the problem", "[runtime]") {
  CHECK(mlc_model_open(nullptr) == nullptr);
  CHECK(mlc_last_status() == MLC_ERR_INVALID_ARGUMENT);
  CHECK(contains(mlc_last_error(), "model path is NULL"));

  std::string missing = fakeModel("does_not_exist");
  CHECK(mlc_model_open(missing.c_str()) == nullptr);
  CHECK(mlc_last_status() == MLC_ERR_LOAD);
  CHECK(contains(mlc_last_error(), "cannot load model '" + missing + "'"));

  // A file that is not ELF at all.
  char textPath[] = "/tmp/mlc-runtime-test-XXXXXX";
  int fd = mkstemp(textPath);
  REQUIRE(fd >= 0);
  const char text[] = "this is not a shared library\n";
  REQUIRE(write(fd, text, sizeof(text)) == ssize_t(sizeof(text)));
  close(fd);
  CHECK(mlc_model_open(textPath) == nullptr);
  CHECK(mlc_last_status() == MLC_ERR_LOAD);
  CHECK(contains(mlc_last_error(),
                 std::string("cannot load model '") + textPath + "'"));
  unlink(textPath);

  struct Case {
    const char *model;
    mlc_status status;
    const char *message;
  } cases[] = {
      {"fake_model_bad_abi", MLC_ERR_LOAD,
       "was compiled for model ABI version 99, but this runtime supports "
       "version 1"},
      {"fake_model_bad_signature", MLC_ERR_LOAD,
       "has a malformed signature: line 2: expected ',' or ']' in the shape"},
      {"fake_model_no_entry", MLC_ERR_LOAD,
       "is not an mlc model: missing symbol mlc_model_entry"},
      {"fake_model_bad_cpu", MLC_ERR_UNSUPPORTED,
       "requires unknown CPU feature 'quantum-tunneling'"},
  };
  for (const Case &c : cases) {
    std::string path = fakeModel(c.model);
    INFO(path);
    CHECK(mlc_model_open(path.c_str()) == nullptr);
    CHECK(mlc_last_status() == c.status);
    CHECK(contains(mlc_last_error(), "'" + path + "'"));
    CHECK(contains(mlc_last_error(), c.message));
  }

  // A real shared library that is not a model.
  const char *libm = "/lib/x86_64-linux-gnu/libm.so.6";
  if (access(libm, R_OK) == 0) {
    CHECK(mlc_model_open(libm) == nullptr);
    CHECK(contains(mlc_last_error(),
                   "'/lib/x86_64-linux-gnu/libm.so.6' is not an mlc model: "
                   "missing symbol mlc_model_abi_version"));
  }
}

TEST_CASE("a bare file name means the current directory", "[runtime]") {
  std::string path = fakeModel("fake_model");
  std::string dir = path.substr(0, path.rfind('/'));
  char cwd[4096];
  REQUIRE(getcwd(cwd, sizeof(cwd)));
  REQUIRE(chdir(dir.c_str()) == 0);
  mlc_model *m = mlc_model_open("fake_model.so");
  std::string error = mlc_last_error();
  REQUIRE(chdir(cwd) == 0);
  INFO(error);
  REQUIRE(m != nullptr);
  FakeRun run;
  CHECK(run.run(m) == MLC_OK);
  mlc_model_close(m);
}

TEST_CASE("the runtime inside model.so works on its own", "[runtime]") {
  // What the Python binding does: call the runtime linked into the model.
  std::string path = fakeModel("fake_model");
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(lib != nullptr);
  auto open =
      reinterpret_cast<decltype(&mlc_model_open)>(dlsym(lib, "mlc_model_open"));
  auto run =
      reinterpret_cast<decltype(&mlc_model_run)>(dlsym(lib, "mlc_model_run"));
  auto close = reinterpret_cast<decltype(&mlc_model_close)>(
      dlsym(lib, "mlc_model_close"));
  auto lastError =
      reinterpret_cast<decltype(&mlc_last_error)>(dlsym(lib, "mlc_last_error"));
  REQUIRE(open);
  REQUIRE(run);
  REQUIRE(close);
  REQUIRE(lastError);
  // Internals stay hidden.
  CHECK(dlsym(lib, "_ZN3mlc2rt8setErrorE10mlc_statusPKcz") == nullptr);

  mlc_model *m = open(path.c_str());
  REQUIRE(m != nullptr);
  FakeRun good;
  CHECK(run(m, good.inputs, 2, good.outputs, 3) == MLC_OK);
  CHECK(good.outputsCorrect());
  FakeRun bad;
  bad.inputs[0].dtype = MLC_I32;
  CHECK(run(m, bad.inputs, 2, bad.outputs, 3) == MLC_ERR_INVALID_ARGUMENT);
  CHECK(contains(lastError(), "expected dtype f32 but got i32"));
  close(m);
  dlclose(lib);
}

TEST_CASE("concurrent runs on one model", "[runtime]") {
  Model model(fakeModel("fake_model"));
  const int kThreads = 8, kRuns = 200;
  std::atomic<int> failures{0}, done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns; ++r) {
        FakeRun run(float(t * 1000 + r));
        run.b[r % 3] += t;
        if (run.run(model.m) != MLC_OK || !run.outputsCorrect())
          ++failures;
        else
          ++done;
      }
    });
  }
  for (std::thread &t : threads)
    t.join();
  CHECK(failures == 0);
  CHECK(done == kThreads * kRuns);
}

TEST_CASE("the last error is per thread", "[runtime]") {
  Model model(fakeModel("fake_model"));
  FakeRun run;
  run.inputs[0].rank = 3;
  REQUIRE(run.run(model.m) == MLC_ERR_INVALID_ARGUMENT);
  std::string mine = mlc_last_error();
  CHECK(contains(mine, "expected rank 2 but got 3"));

  std::string otherBefore, otherAfter;
  mlc_status otherStatus = MLC_ERR_INTERNAL;
  std::thread other([&] {
    otherBefore = mlc_last_error();
    otherStatus = mlc_last_status();
    mlc_model_num_inputs(nullptr);
    otherAfter = mlc_last_error();
  });
  other.join();
  CHECK(otherBefore.empty());
  CHECK(otherStatus == MLC_OK);
  CHECK(otherAfter == "model is NULL");
  CHECK(mlc_last_error() == mine);

  // Successful calls leave the message alone (errno-style).
  FakeRun good;
  REQUIRE(good.run(model.m) == MLC_OK);
  CHECK(mlc_last_error() == mine);
}

//===----------------------------------------------------------------------===//
// Internals: signature parsing and CPU feature checks
//===----------------------------------------------------------------------===//

namespace {
/// Parses `text`; returns "" on success or the error message.
std::string parse(const char *text, mlc::rt::Signature *out = nullptr) {
  mlc::rt::Signature sig = {};
  char err[512] = "";
  bool ok = mlc::rt::parseSignature(text, &sig, err, sizeof(err));
  if (ok && out)
    *out = sig;
  else
    mlc::rt::freeSignature(&sig);
  return ok ? "" : (err[0] ? err : "(empty error)");
}
} // namespace

TEST_CASE("signature parsing", "[runtime][signature]") {
  mlc::rt::Signature sig = {};
  REQUIRE(parse("in f32 [1,784] x\nin bool [] flag\nout f16 [2, 3] the y\n"
                "out i64 [0] x",
                &sig) == "");
  REQUIRE(sig.numInputs == 2);
  REQUIRE(sig.numOutputs == 2);
  CHECK(std::string(sig.tensors[0].name) == "x");
  CHECK(sig.tensors[0].sizeBytes == 784 * 4);
  CHECK(sig.tensors[1].rank == 0);
  CHECK(sig.tensors[1].shape == nullptr);
  CHECK(sig.tensors[1].numElements == 1);
  CHECK(std::string(sig.tensors[2].name) == "the y");
  CHECK(sig.tensors[2].dtype == MLC_F16);
  CHECK(sig.tensors[2].shape[1] == 3);
  CHECK(sig.tensors[3].numElements == 0);
  mlc::rt::freeSignature(&sig);

  CHECK(parse("out f32 [] y\n") == "");

  struct Bad {
    const char *text;
    const char *message;
  } bad[] = {
      {nullptr, "signature is NULL"},
      {"", "declares no outputs"},
      {"in f32 [2] a\n", "declares no outputs"},
      {"\nout f32 [2] y\n", "line 1: expected 'in ' or 'out ' but got ''"},
      {"inout f32 [2] a\n", "line 1: expected 'in ' or 'out '"},
      {"out f33 [2] y\n", "line 1: unknown dtype 'f33'"},
      {"out float32 [2] y\n", "unknown dtype 'float32'"},
      {"out f32", "expected a shape after the dtype"},
      {"out  f32 [2] y", "unknown dtype ''"},
      {"out f32 2] y\n", "expected '[' starting the shape"},
      {"out f32 [2,] y\n", "expected a dimension"},
      {"out f32 [-1] y\n", "expected a dimension"},
      {"out f32 [2 y\n", "expected ',' or ']'"},
      {"out f32 [2", "expected ',' or ']'"},
      {"out f32 [2]y\n", "expected ' <name>' after the shape"},
      {"out f32 [2] \n", "expected ' <name>' after the shape"},
      {"out f32 [2]\n", "expected ' <name>' after the shape"},
      {"out f32 [99999999999999999999] y", "dimension too large"},
      {"out f32 [4294967296,4294967296] y", "tensor size overflows"},
      {"out f64 [1048576,1048576,1048576] y", "tensor size overflows"},
      {"out f32 [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
       "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] y",
       "rank exceeds 64"},
      {"out f32 [2] y\nin f32 [2] a\n", "line 2: input declared after"},
      {"in f32 [2] a\nin i32 [2] a\nout f32 [2] y\n",
       "line 2: duplicate input name 'a'"},
      {"in f32 [2] a\nout f32 [2] y\nout f32 [2] y\n",
       "line 3: duplicate output name 'y'"},
  };
  for (const Bad &b : bad) {
    INFO("signature: " << (b.text ? b.text : "NULL"));
    std::string err = parse(b.text);
    INFO("error: " << err);
    CHECK(contains(err, b.message));
  }
  // An output may forward an input of the same name.
  CHECK(parse("in f32 [2] x\nout f32 [2] x\n") == "");
}

TEST_CASE("signature parsing survives garbage", "[runtime][signature]") {
  const char alphabet[] = "inout f32i64bool[],0129 \n\r\x01\xff";
  std::mt19937 rng(1234);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string text;
    size_t len = rng() % 48;
    for (size_t i = 0; i < len; ++i)
      text += alphabet[rng() % (sizeof(alphabet) - 1)];
    if (rng() % 2)
      text = "in f32 [2,3] x\n" + text;
    mlc::rt::Signature sig = {};
    char err[64];
    mlc::rt::parseSignature(text.c_str(), &sig, err, sizeof(err));
    mlc::rt::freeSignature(&sig);
  }
  SUCCEED("no crash");
}

TEST_CASE("CPU feature checks", "[runtime][cpu]") {
  using namespace mlc::rt;
  REQUIRE(cpuFeatureCount() == 10);
  CHECK(std::string(cpuFeatureName(0)) == "sse4.2");
  CHECK(std::string(cpuFeatureName(9)) == "avx512vnni");
  CHECK(cpuFeatureName(10) == nullptr);
  uint32_t all = (1u << cpuFeatureCount()) - 1;
  char err[256] = "";
  CHECK(checkCpuFeatures(nullptr, 0, err, sizeof(err)) == MLC_OK);
  CHECK(checkCpuFeatures("", 0, err, sizeof(err)) == MLC_OK);
  CHECK(checkCpuFeatures("avx2, fma,,avx512dq", all, err, sizeof(err)) ==
        MLC_OK);
  CHECK(checkCpuFeatures("avx2,fma", all & ~(1u << 3), err, sizeof(err)) ==
        MLC_ERR_UNSUPPORTED);
  CHECK(std::string(err) == "requires CPU feature 'fma', which this CPU lacks");
  // A model with the integer (vpdpbusd) kernels on a CPU without VNNI.
  CHECK(checkCpuFeatures("avx512f,avx512vnni", all & ~(1u << 9), err,
                         sizeof(err)) == MLC_ERR_UNSUPPORTED);
  CHECK(std::string(err) ==
        "requires CPU feature 'avx512vnni', which this CPU lacks");
  CHECK(checkCpuFeatures("avx2,neon", all, err, sizeof(err)) ==
        MLC_ERR_UNSUPPORTED);
  CHECK(contains(err, "unknown CPU feature 'neon'"));
  CHECK(checkCpuFeatures("avx", all, err, sizeof(err)) == MLC_OK);
  CHECK(checkCpuFeatures("avx5", all, err, sizeof(err)) == MLC_ERR_UNSUPPORTED);

  // The host mask only holds known features.
  CHECK((hostCpuFeatureMask() & ~all) == 0);
}
