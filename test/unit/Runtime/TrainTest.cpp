//===- TrainTest.cpp - tests of the runtime's trainable-model API ---------===//
//
// Runs the hand-written trainable models (fake_train_model.c): load-time
// cross-checks of the three signatures, train steps against a reference
// computed here, variable access, safetensors files and concurrency.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "mlc/runtime.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace runtimetest;

namespace {

/// A scratch directory removed (with its files) at the end of a test.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/mlc-train-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    path = tmpl;
  }
  ~TempDir() {
    for (const std::string &f : files())
      unlink((path + "/" + f).c_str());
    rmdir(path.c_str());
  }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    if (DIR *d = opendir(path.c_str())) {
      while (dirent *e = readdir(d))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
          names.push_back(e->d_name);
      closedir(d);
    }
    return names;
  }
  std::string file(const char *name) const { return path + "/" + name; }
};

std::string readFile(const std::string &path) {
  std::string bytes;
  if (FILE *f = fopen(path.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
      bytes.append(buf, n);
    fclose(f);
  }
  return bytes;
}

void writeFile(const std::string &path, const std::string &bytes) {
  FILE *f = fopen(path.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  fclose(f);
}

/// A safetensors file from a header text and data bytes.
std::string safetensors(const std::string &header, const std::string &data) {
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i)
    file[i] = char(uint64_t(header.size()) >> (8 * i));
  return file + header + data;
}

std::string floatBytes(std::vector<float> values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(float));
}

//===----------------------------------------------------------------------===//
// The regression model (variant 0) and its reference
//===----------------------------------------------------------------------===//

const int64_t kTrainX[] = {4, 3}, kTrainY[] = {4, 1}, kInferX[] = {2, 3},
              kInferY[] = {2, 1};

struct RegressionState {
  float w[3] = {0.1f, -0.2f, 0.3f};
  float b = 0, ymean = 0;
  int64_t step = 0;

  /// The fake model's step, in the same float operation order.
  float train(const float *x, const float *y) {
    float g[4], total = 0, ysum = 0;
    for (int i = 0; i < 4; ++i) {
      float pred =
          x[i * 3] * w[0] + x[i * 3 + 1] * w[1] + x[i * 3 + 2] * w[2] + b;
      float d = pred - y[i];
      total += d * d;
      g[i] = 2.0f * d / 4.0f;
      ysum += y[i];
    }
    float newW[3];
    for (int j = 0; j < 3; ++j) {
      float dw = 0;
      for (int i = 0; i < 4; ++i)
        dw += g[i] * x[i * 3 + j];
      newW[j] = w[j] - 0.1f * dw;
    }
    memcpy(w, newW, sizeof(w));
    b = b - 0.1f * (g[0] + g[1] + g[2] + g[3]);
    ymean = 0.9f * ymean + 0.1f * (ysum / 4.0f);
    ++step;
    return total / 4.0f;
  }
};

/// A deterministic batch per step number.
void batch(int step, float x[12], float y[4]) {
  for (int i = 0; i < 12; ++i)
    x[i] = float((i * 7 + step * 3) % 11) / 5.0f - 1.0f;
  for (int i = 0; i < 4; ++i)
    y[i] = 2.0f * x[i * 3] - x[i * 3 + 1] + 0.5f * x[i * 3 + 2] + 0.25f;
}

mlc_status step(mlc_model *m, int stepNumber, float *loss) {
  float x[12], y[4];
  batch(stepNumber, x, y);
  mlc_tensor inputs[2] = {{x, MLC_F32, 2, kTrainX}, {y, MLC_F32, 2, kTrainY}};
  return mlc_model_train_step(m, inputs, 2, loss);
}

void checkVariables(mlc_model *m, const RegressionState &want) {
  float w[3], b, ymean;
  int64_t stepCount;
  REQUIRE(mlc_model_read_variable(m, 0, w, sizeof(w)) == MLC_OK);
  REQUIRE(mlc_model_read_variable(m, 1, &b, 4) == MLC_OK);
  REQUIRE(mlc_model_read_variable(m, 2, &ymean, 4) == MLC_OK);
  REQUIRE(mlc_model_read_variable(m, 3, &stepCount, 8) == MLC_OK);
  for (int j = 0; j < 3; ++j)
    CHECK(w[j] == Approx(want.w[j]).margin(1e-6));
  CHECK(b == Approx(want.b).margin(1e-6));
  CHECK(ymean == Approx(want.ymean).margin(1e-6));
  CHECK(stepCount == want.step);
}

/// Inference on two rows; returns y.
std::vector<float> infer(const mlc_model *m, const float x[6]) {
  std::vector<float> y(2, -999.0f);
  mlc_tensor in = {const_cast<float *>(x), MLC_F32, 2, kInferX};
  mlc_tensor out = {y.data(), MLC_F32, 2, kInferY};
  mlc_status s = mlc_model_run(m, &in, 1, &out, 1);
  INFO(mlc_last_error());
  REQUIRE(s == MLC_OK);
  return y;
}

std::vector<float> expectedInference(const float w[3], float b,
                                     const float x[6]) {
  std::vector<float> y(2);
  for (int i = 0; i < 2; ++i)
    y[i] = x[i * 3] * w[0] + x[i * 3 + 1] * w[1] + x[i * 3 + 2] * w[2] + b;
  return y;
}

const float kInferInput[6] = {1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 0.25f};

} // namespace

TEST_CASE("a trainable model describes itself", "[train]") {
  Model model(fakeModel("fake_train_regression"));
  const mlc_model *m = model.m;
  CHECK(mlc_model_is_trainable(m) == 1);

  // Inference sees only the caller's inputs, not the variables.
  REQUIRE(mlc_model_num_inputs(m) == 1);
  REQUIRE(mlc_model_num_outputs(m) == 1);
  mlc_tensor_info info;
  REQUIRE(mlc_model_input_info(m, 0, &info) == MLC_OK);
  CHECK(std::string(info.name) == "x");
  CHECK(info.shape[0] == 2);
  CHECK(mlc_model_find_input(m, "x") == 0);
  CHECK(mlc_model_find_input(m, "w") == -1);
  CHECK_ERROR(mlc_model_input_info(m, 1, &info), MLC_ERR_INVALID_ARGUMENT,
              "input index 1 out of range (the model has 1 inputs)");
  CHECK(mlc_model_workspace_size(m) == 64);

  REQUIRE(mlc_model_num_train_inputs(m) == 2);
  REQUIRE(mlc_model_train_input_info(m, 0, &info) == MLC_OK);
  CHECK(std::string(info.name) == "x");
  CHECK(info.rank == 2);
  CHECK(info.shape[0] == 4);
  CHECK(info.shape[1] == 3);
  REQUIRE(mlc_model_train_input_info(m, 1, &info) == MLC_OK);
  CHECK(std::string(info.name) == "y");
  CHECK(info.size_bytes == 16);
  CHECK_ERROR(mlc_model_train_input_info(m, 2, &info), MLC_ERR_INVALID_ARGUMENT,
              "train input index 2 out of range (the model has 2 train "
              "inputs)");
  CHECK_ERROR(mlc_model_train_input_info(m, 0, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "train input info pointer is NULL");

  REQUIRE(mlc_model_num_variables(m) == 4);
  const char *names[] = {"w", "b", "ymean", "step"};
  const mlc_variable_kind kinds[] = {MLC_VAR_PARAM, MLC_VAR_PARAM,
                                     MLC_VAR_BUFFER, MLC_VAR_STATE};
  const mlc_dtype dtypes[] = {MLC_F32, MLC_F32, MLC_F32, MLC_I64};
  for (int32_t i = 0; i < 4; ++i) {
    mlc_variable_kind kind = mlc_variable_kind(0);
    REQUIRE(mlc_model_variable_info(m, i, &info, &kind) == MLC_OK);
    CHECK(std::string(info.name) == names[i]);
    CHECK(kind == kinds[i]);
    CHECK(info.dtype == dtypes[i]);
    CHECK(mlc_model_find_variable(m, names[i]) == i);
  }
  REQUIRE(mlc_model_variable_info(m, 0, &info, nullptr) == MLC_OK);
  CHECK(info.num_elements == 3);
  CHECK(info.size_bytes == 12);
  REQUIRE(mlc_model_variable_info(m, 3, &info, nullptr) == MLC_OK);
  CHECK(info.rank == 0);
  CHECK(info.size_bytes == 8);
  CHECK_ERROR(mlc_model_variable_info(m, 4, &info, nullptr),
              MLC_ERR_INVALID_ARGUMENT,
              "variable index 4 out of range (the model has 4 variables)");
  CHECK_ERROR(mlc_model_variable_info(m, -1, &info, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "variable index -1 out of range");
  CHECK_ERROR(mlc_model_variable_info(m, 0, nullptr, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "variable info pointer is NULL");
  CHECK(mlc_model_find_variable(m, "x") == -1);
  CHECK(contains(mlc_last_error(), "no variable named 'x'"));
  CHECK(mlc_model_find_variable(m, nullptr) == -1);
  CHECK(contains(mlc_last_error(), "variable name is NULL"));

  // The init entry ran.
  checkVariables(model.m, RegressionState());

  // NULL models.
  CHECK(mlc_model_is_trainable(nullptr) == -1);
  CHECK(mlc_model_num_train_inputs(nullptr) == -1);
  CHECK(mlc_model_num_variables(nullptr) == -1);
  CHECK(mlc_model_find_variable(nullptr, "w") == -1);
  CHECK_ERROR(mlc_model_train_input_info(nullptr, 0, &info),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK_ERROR(mlc_model_variable_info(nullptr, 0, &info, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK_ERROR(mlc_model_train_step(nullptr, nullptr, 0, nullptr),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK_ERROR(mlc_model_reset_variables(nullptr), MLC_ERR_INVALID_ARGUMENT,
              "model is NULL");
  CHECK_ERROR(mlc_model_save_safetensors(nullptr, "x", 0),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK_ERROR(mlc_model_load_safetensors(nullptr, "x"),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  float f;
  CHECK_ERROR(mlc_model_read_variable(nullptr, 0, &f, 4),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
  CHECK_ERROR(mlc_model_write_variable(nullptr, 0, &f, 4),
              MLC_ERR_INVALID_ARGUMENT, "model is NULL");
}

TEST_CASE("plain models are not trainable", "[train]") {
  Model model(fakeModel("fake_model"));
  mlc_model *m = model.m;
  CHECK(mlc_model_is_trainable(m) == 0);
  CHECK(mlc_model_num_train_inputs(m) == 0);
  CHECK(mlc_model_num_variables(m) == 0);
  mlc_tensor_info info;
  float f = 0;
  const char *notTrainable = "is not a trainable model (compile it with "
                             "mlc-compile --train)";
  CHECK_ERROR(mlc_model_train_step(m, nullptr, 0, &f), MLC_ERR_INVALID_ARGUMENT,
              notTrainable);
  CHECK_ERROR(mlc_model_train_input_info(m, 0, &info), MLC_ERR_INVALID_ARGUMENT,
              notTrainable);
  CHECK_ERROR(mlc_model_variable_info(m, 0, &info, nullptr),
              MLC_ERR_INVALID_ARGUMENT, notTrainable);
  CHECK(mlc_model_find_variable(m, "a") == -1);
  CHECK(contains(mlc_last_error(), notTrainable));
  CHECK_ERROR(mlc_model_read_variable(m, 0, &f, 4), MLC_ERR_INVALID_ARGUMENT,
              notTrainable);
  CHECK_ERROR(mlc_model_write_variable(m, 0, &f, 4), MLC_ERR_INVALID_ARGUMENT,
              notTrainable);
  CHECK_ERROR(mlc_model_reset_variables(m), MLC_ERR_INVALID_ARGUMENT,
              notTrainable);
  CHECK_ERROR(mlc_model_save_safetensors(m, "/tmp/never-written", 0),
              MLC_ERR_INVALID_ARGUMENT, notTrainable);
  CHECK(access("/tmp/never-written", F_OK) != 0);
  CHECK_ERROR(mlc_model_load_safetensors(m, "/tmp/never-written"),
              MLC_ERR_INVALID_ARGUMENT, notTrainable);
}

TEST_CASE("train steps match a hand computation", "[train]") {
  Model model(fakeModel("fake_train_regression"));
  RegressionState want;
  // Several steps on different batches: a wrong swap of the two variable
  // copies would show from the second step on.
  for (int s = 0; s < 6; ++s) {
    float x[12], y[4];
    batch(s, x, y);
    float wantLoss = want.train(x, y);
    float loss = -1;
    mlc_status status = step(model.m, s, &loss);
    INFO("step " << s << ": " << mlc_last_error());
    REQUIRE(status == MLC_OK);
    CHECK(loss == Approx(wantLoss).margin(1e-6));
    checkVariables(model.m, want);
    // Inference reads the updated parameters.
    std::vector<float> got = infer(model.m, kInferInput);
    std::vector<float> expected =
        expectedInference(want.w, want.b, kInferInput);
    CHECK(got[0] == Approx(expected[0]).margin(1e-5));
    CHECK(got[1] == Approx(expected[1]).margin(1e-5));
  }
  // Training converges towards the generating weights.
  float loss = 0;
  for (int s = 6; s < 400; ++s)
    REQUIRE(step(model.m, s, &loss) == MLC_OK);
  CHECK(loss < 1e-3f);
  float w[3];
  REQUIRE(mlc_model_read_variable(model.m, 0, w, sizeof(w)) == MLC_OK);
  CHECK(w[0] == Approx(2.0f).margin(0.05));
  CHECK(w[1] == Approx(-1.0f).margin(0.05));
  // The loss pointer may be NULL.
  CHECK(step(model.m, 0, nullptr) == MLC_OK);
}

TEST_CASE("variables can be read, written and reset", "[train]") {
  Model model(fakeModel("fake_train_regression"));
  mlc_model *m = model.m;
  const float w[3] = {1.0f, 2.0f, 3.0f};
  const float b = 0.5f;
  REQUIRE(mlc_model_write_variable(m, 0, w, sizeof(w)) == MLC_OK);
  REQUIRE(mlc_model_write_variable(m, 1, &b, sizeof(b)) == MLC_OK);
  std::vector<float> got = infer(m, kInferInput);
  CHECK(got[0] == 1.0f + 4.0f + 9.0f + 0.5f);
  CHECK(got[1] == -1.0f + 1.0f + 0.75f + 0.5f);

  // Training continues from the written values.
  RegressionState want;
  memcpy(want.w, w, sizeof(w));
  want.b = b;
  float x[12], y[4];
  batch(0, x, y);
  want.train(x, y);
  REQUIRE(step(m, 0, nullptr) == MLC_OK);
  checkVariables(m, want);

  // A write after a step lands in the current copy too.
  const int64_t stepCount = 41;
  REQUIRE(mlc_model_write_variable(m, 3, &stepCount, 8) == MLC_OK);
  want.step = 41;
  checkVariables(m, want);
  REQUIRE(step(m, 1, nullptr) == MLC_OK);
  batch(1, x, y);
  want.train(x, y);
  checkVariables(m, want);
  CHECK(want.step == 42);

  REQUIRE(mlc_model_reset_variables(m) == MLC_OK);
  checkVariables(m, RegressionState());

  // Rejected accesses.
  float small[2];
  CHECK_ERROR(mlc_model_read_variable(m, 0, small, sizeof(small)),
              MLC_ERR_INVALID_ARGUMENT,
              "variable 0 ('w'): expected a buffer of 12 bytes but got 8");
  CHECK_ERROR(mlc_model_write_variable(m, 3, small, 4),
              MLC_ERR_INVALID_ARGUMENT,
              "variable 3 ('step'): expected a buffer of 8 bytes but got 4");
  CHECK_ERROR(mlc_model_read_variable(m, 1, nullptr, 4),
              MLC_ERR_INVALID_ARGUMENT, "variable 1 ('b'): buffer is NULL");
  CHECK_ERROR(mlc_model_write_variable(m, 1, nullptr, 4),
              MLC_ERR_INVALID_ARGUMENT, "variable 1 ('b'): buffer is NULL");
  CHECK_ERROR(mlc_model_write_variable(m, 7, w, 12), MLC_ERR_INVALID_ARGUMENT,
              "variable index 7 out of range");
  CHECK_ERROR(mlc_model_read_variable(m, -2, small, 4),
              MLC_ERR_INVALID_ARGUMENT, "variable index -2 out of range");
  checkVariables(m, RegressionState());
}

TEST_CASE("invalid train steps change nothing", "[train]") {
  Model model(fakeModel("fake_train_regression"));
  mlc_model *m = model.m;
  float x[12], y[4];
  batch(0, x, y);
  mlc_tensor inputs[2];
  auto reset = [&] {
    inputs[0] = {x, MLC_F32, 2, kTrainX};
    inputs[1] = {y, MLC_F32, 2, kTrainY};
  };
  float loss = 12345.0f;
  auto expectRejected = [&](mlc_status status, const char *message) {
    INFO("last error: " << mlc_last_error());
    CHECK(status == MLC_ERR_INVALID_ARGUMENT);
    CHECK(contains(mlc_last_error(), message));
    CHECK(loss == 12345.0f);
    checkVariables(m, RegressionState());
    reset();
  };
  reset();
  expectRejected(mlc_model_train_step(m, inputs, 1, &loss),
                 "expected 2 train inputs but got 1");
  expectRejected(mlc_model_train_step(m, inputs, 3, &loss),
                 "expected 2 train inputs but got 3");
  expectRejected(mlc_model_train_step(m, nullptr, 2, &loss),
                 "train inputs array is NULL");
  inputs[1].data = nullptr;
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 1 ('y'): data is NULL");
  inputs[0].dtype = MLC_F64;
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 0 ('x'): expected dtype f32 but got f64");
  inputs[1].dtype = mlc_dtype(99);
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 1 ('y'): expected dtype f32 but got invalid "
                 "(99)");
  inputs[0].rank = 1;
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 0 ('x'): expected rank 2 but got 1");
  inputs[0].shape = nullptr;
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 0 ('x'): shape is NULL for rank 2");
  const int64_t wrong[] = {8, 3};
  inputs[0].shape = wrong;
  expectRejected(mlc_model_train_step(m, inputs, 2, &loss),
                 "train input 0 ('x'): expected shape [4,3] but got [8,3]");

  // Inference of a trainable model validates like any other.
  float out[2];
  mlc_tensor in = {x, MLC_F32, 2, kTrainX};
  mlc_tensor o = {out, MLC_F32, 2, kInferY};
  CHECK_ERROR(mlc_model_run(m, &in, 1, &o, 1), MLC_ERR_INVALID_ARGUMENT,
              "input 0 ('x'): expected shape [2,3] but got [4,3]");
  in.shape = kInferX;
  CHECK_ERROR(mlc_model_run(m, &in, 2, &o, 1), MLC_ERR_INVALID_ARGUMENT,
              "expected 1 inputs but got 2");
  CHECK_ERROR(mlc_model_run(m, &in, 1, nullptr, 1), MLC_ERR_INVALID_ARGUMENT,
              "outputs array is NULL");
  o.data = x + 1;
  CHECK_ERROR(mlc_model_run(m, &in, 1, &o, 1), MLC_ERR_INVALID_ARGUMENT,
              "output 0 ('y') overlaps input 0 ('x')");

  reset();
  REQUIRE(mlc_model_train_step(m, inputs, 2, &loss) == MLC_OK);
  CHECK(loss != 12345.0f);
}

TEST_CASE("the classifier's loss decreases", "[train]") {
  Model model(fakeModel("fake_train_classifier"));
  mlc_model *m = model.m;
  REQUIRE(mlc_model_num_variables(m) == 5);
  mlc_variable_kind kind;
  mlc_tensor_info info;
  REQUIRE(mlc_model_variable_info(m, 2, &info, &kind) == MLC_OK);
  CHECK(std::string(info.name) == "vW");
  CHECK(kind == MLC_VAR_STATE);
  REQUIRE(mlc_model_train_input_info(m, 1, &info) == MLC_OK);
  CHECK(info.dtype == MLC_I64);

  // Class k: feature k is large.
  float x[32];
  int64_t label[8];
  for (int i = 0; i < 8; ++i) {
    label[i] = i % 3;
    for (int j = 0; j < 4; ++j)
      x[i * 4 + j] = (j == label[i] ? 2.0f : 0.0f) + 0.1f * float(i % 2);
  }
  const int64_t xs[] = {8, 4}, ls[] = {8};
  mlc_tensor inputs[2] = {{x, MLC_F32, 2, xs}, {label, MLC_I64, 1, ls}};
  float first = 0, loss = 0;
  REQUIRE(mlc_model_train_step(m, inputs, 2, &first) == MLC_OK);
  CHECK(first == Approx(std::log(3.0f)).margin(0.1));
  for (int s = 0; s < 30; ++s)
    REQUIRE(mlc_model_train_step(m, inputs, 2, &loss) == MLC_OK);
  CHECK(loss < first / 10);
  int64_t steps = 0;
  REQUIRE(mlc_model_read_variable(m, 4, &steps, 8) == MLC_OK);
  CHECK(steps == 31);
}

TEST_CASE("broken trainable models are refused at load", "[train]") {
  struct Case {
    const char *model;
    const char *message;
  } cases[] = {
      {"fake_train_bad_update_order",
       "is not a valid trainable model: mlc_train_signature: update 0 is 'b' "
       "but variable 0 is 'w' (updates follow the variable order)"},
      {"fake_train_bad_init_shape",
       "mlc_init_signature: update 'w' is f32 [3] but the variable is f32 "
       "[3,1]"},
      {"fake_train_update_dtype",
       "mlc_train_signature: update 'w' is f64 [3,1] but the variable is f32 "
       "[3,1]"},
      {"fake_train_missing_update",
       "mlc_train_signature has 3 update lines but the model has 4 "
       "variables"},
      {"fake_train_infer_reads_state",
       "mlc_model_signature reads optimizer state 'step'"},
      {"fake_train_infer_unknown_var",
       "mlc_model_signature: 'bias' is not a variable of mlc_train_signature"},
      {"fake_train_infer_var_order",
       "mlc_model_signature: variable 'w' is out of order"},
      {"fake_train_infer_kind_mismatch",
       "mlc_model_signature declares 'b' as buffer but mlc_train_signature "
       "as param"},
      {"fake_train_no_init_entry",
       "is a trainable model (it exports mlc_train_entry) but lacks symbol "
       "mlc_init_entry"},
      {"fake_train_bad_loss",
       "mlc_train_signature: the first output must be the loss, 'out f32 "
       "[]', but 'loss' is not"},
      {"fake_train_init_with_input",
       "mlc_init_signature must have no inputs but declares 'seed'"},
      {"fake_train_bad_train_signature",
       "has a malformed train signature: line 1: expected ',' or ']'"},
      {"fake_train_plain_with_params",
       "has a malformed signature: line 1: variable line in a model that is "
       "not trainable"},
  };
  for (const Case &c : cases) {
    std::string path = fakeModel(c.model);
    INFO(path);
    mlc_model *m = mlc_model_open(path.c_str());
    INFO(mlc_last_error());
    CHECK(m == nullptr);
    mlc_model_close(m);
    CHECK(mlc_last_status() == MLC_ERR_LOAD);
    CHECK(contains(mlc_last_error(), "'" + path + "'"));
    CHECK(contains(mlc_last_error(), c.message));
  }
}

//===----------------------------------------------------------------------===//
// Safetensors
//===----------------------------------------------------------------------===//

TEST_CASE("safetensors files round-trip", "[train][safetensors]") {
  TempDir dir;
  Model model(fakeModel("fake_train_regression"));
  mlc_model *m = model.m;
  RegressionState want;
  for (int s = 0; s < 3; ++s) {
    float x[12], y[4];
    batch(s, x, y);
    want.train(x, y);
    REQUIRE(step(m, s, nullptr) == MLC_OK);
  }

  std::string weights = dir.file("weights.safetensors");
  std::string full = dir.file("full.safetensors");
  REQUIRE(mlc_model_save_safetensors(m, weights.c_str(), 0) == MLC_OK);
  REQUIRE(mlc_model_save_safetensors(m, full.c_str(), 1) == MLC_OK);
  // No temporary files are left behind.
  CHECK(dir.files().size() == 2);

  // The file layout: header length, JSON header, data.
  std::string bytes = readFile(weights);
  REQUIRE(bytes.size() >= 8);
  uint64_t headerSize = 0;
  for (int i = 0; i < 8; ++i)
    headerSize |= uint64_t(uint8_t(bytes[i])) << (8 * i);
  CHECK(headerSize % 8 == 0);
  REQUIRE(bytes.size() == 8 + headerSize + 12 + 4 + 4);
  std::string header = bytes.substr(8, headerSize);
  INFO(header);
  CHECK(header.front() == '{');
  CHECK(contains(header, "\"w\":{\"dtype\":\"F32\",\"shape\":[3,1],"
                         "\"data_offsets\":[0,12]}"));
  CHECK(contains(header, "\"b\":{\"dtype\":\"F32\",\"shape\":[1],"
                         "\"data_offsets\":[12,16]}"));
  CHECK(contains(header, "\"ymean\":{\"dtype\":\"F32\",\"shape\":[1],"
                         "\"data_offsets\":[16,20]}"));
  CHECK_FALSE(contains(header, "step"));
  float saved[5];
  memcpy(saved, bytes.data() + 8 + headerSize, 20);
  CHECK(saved[0] == want.w[0]);
  CHECK(saved[2] == want.w[2]);
  CHECK(saved[3] == want.b);
  CHECK(saved[4] == want.ymean);
  std::string fullHeader = readFile(full).substr(8, headerSize + 64);
  CHECK(contains(fullHeader, "\"step\":{\"dtype\":\"I64\",\"shape\":[],"
                             "\"data_offsets\":[20,28]}"));

  // Loading restores the saved params and buffers; without state in the
  // file, the optimizer state stays as it is.
  RegressionState atSave = want;
  for (int s = 3; s < 5; ++s)
    REQUIRE(step(m, s, nullptr) == MLC_OK);
  REQUIRE(mlc_model_load_safetensors(m, weights.c_str()) == MLC_OK);
  RegressionState expected = atSave;
  expected.step = 5;
  checkVariables(m, expected);
  REQUIRE(mlc_model_load_safetensors(m, full.c_str()) == MLC_OK);
  checkVariables(m, atSave);

  // Into a fresh model, which then trains on exactly like the original.
  Model other(fakeModel("fake_train_regression"));
  REQUIRE(mlc_model_load_safetensors(other.m, full.c_str()) == MLC_OK);
  checkVariables(other.m, atSave);
  float x[12], y[4];
  batch(3, x, y);
  atSave.train(x, y);
  REQUIRE(step(other.m, 3, nullptr) == MLC_OK);
  checkVariables(other.m, atSave);

  // Saving over an existing file replaces it.
  REQUIRE(mlc_model_save_safetensors(other.m, weights.c_str(), 0) == MLC_OK);
  CHECK(readFile(weights) != bytes);
  CHECK(dir.files().size() == 2);
}

TEST_CASE("bad safetensors files are rejected without changes",
          "[train][safetensors]") {
  TempDir dir;
  Model model(fakeModel("fake_train_regression"));
  mlc_model *m = model.m;
  const RegressionState init;
  const std::string good = "{\"w\":{\"dtype\":\"F32\",\"shape\":[3,1],"
                           "\"data_offsets\":[0,12]},"
                           "\"b\":{\"dtype\":\"F32\",\"shape\":[1],"
                           "\"data_offsets\":[12,16]},"
                           "\"ymean\":{\"dtype\":\"F32\",\"shape\":[1],"
                           "\"data_offsets\":[16,20]}}";
  const std::string data = floatBytes({5, 6, 7, 8, 9});
  std::string path = dir.file("bad.safetensors");

  // The hand-built good file loads (and is then undone by reset).
  writeFile(path, safetensors(good, data));
  REQUIRE(mlc_model_load_safetensors(m, path.c_str()) == MLC_OK);
  float w[3];
  REQUIRE(mlc_model_read_variable(m, 0, w, sizeof(w)) == MLC_OK);
  CHECK(w[2] == 7.0f);
  REQUIRE(mlc_model_reset_variables(m) == MLC_OK);

  auto replace = [&](std::string text, const std::string &from,
                     const std::string &to) {
    size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  // The good file with `from` in its header replaced by `to`.
  auto edited = [&](const std::string &from, const std::string &to) {
    return safetensors(replace(good, from, to), data);
  };
  struct Case {
    std::string file;
    const char *message;
  } cases[] = {
      {edited("[3,1]", "[1,3]"),
       "tensor 'w' is F32 [1,3] but the variable is F32 [3,1]"},
      {edited("\"F32\"", "\"F64\""),
       "tensor 'w' is F64 [3,1] but the variable is F32 [3,1]"},
      {edited("\"F32\"", "\"Q7\""), "tensor 'w' has unsupported dtype 'Q7'"},
      {edited("\"ymean\"", "\"ymeen\""),
       "tensor 'ymeen' is not a variable of the model"},
      {edited(",\"ymean\":{\"dtype\":\"F32\",\"shape\":[1],"
              "\"data_offsets\":[16,20]}",
              ""),
       "has no tensor for variable 'ymean'"},
      {edited("\"b\"", "\"w\""), "tensor 'w' appears twice"},
      {safetensors(good, data.substr(0, 18)),
       "tensor 'ymean' has data_offsets [16,20] outside the 18 data bytes "
       "(truncated file?)"},
      {edited("[12,16]", "[12,20]"),
       "tensor 'b' has data_offsets [12,20] spanning 8 bytes instead of 4"},
      {edited("[12,16]", "[16,12]"),
       "tensor 'b' has data_offsets [16,12] outside"},
      {edited("\"shape\":[3,1],", ""), "tensor 'w' lacks \"shape\""},
      {edited("}}", "}"), "is not a valid safetensors file: header byte"},
      {safetensors(good + " x", data),
       "trailing characters after the header object"},
      {edited("[3,1]", "[3,-1]"), "expected a non-negative integer"},
      {edited("[3,1]", "[3,1.5]"), "expected an integer"},
      {safetensors("[]", data), "expected '{'"},
      {safetensors("", data), "expected '{'"},
      {std::string("\x10\0\0", 3), "shorter than its 8-byte header length"},
      {std::string("\xff\xff\xff\xff\0\0\0\0{}", 10),
       "header length 4294967295 exceeds the file size 10"},
      {safetensors("{\"\\ud800\":{}}", ""), "unpaired surrogate"},
      {safetensors("{\"w\":\"x\"}", ""), "expected '{'"},
      {safetensors("{\"w\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                   "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[}",
                   ""),
       "expected '{'"},
      {safetensors("{\"__metadata__\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                   "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[}",
                   ""),
       "nesting too deep"},
      {safetensors("{\"w\":{\"dtype\":\"F32\"\x01}}", ""), "expected"},
  };
  for (const Case &c : cases) {
    writeFile(path, c.file);
    INFO("file: " << c.file);
    CHECK_ERROR(mlc_model_load_safetensors(m, path.c_str()),
                MLC_ERR_INVALID_ARGUMENT, c.message);
    CHECK(contains(mlc_last_error(), path));
    checkVariables(m, init);
  }

  // Metadata, unknown keys in an entry and escapes in names are fine.
  std::string fancy =
      replace(good, "{\"w\"", "{\"__metadata__\":{\"k\":\"v\"},\"\\u0077\"");
  fancy = replace(fancy, "\"shape\":[1],", "\"shape\":[1],\"x\":[1,{}],");
  writeFile(path, safetensors(fancy, data));
  CHECK(mlc_model_load_safetensors(m, path.c_str()) == MLC_OK);
  INFO(mlc_last_error());
  REQUIRE(mlc_model_reset_variables(m) == MLC_OK);

  CHECK_ERROR(mlc_model_load_safetensors(m, dir.file("missing").c_str()),
              MLC_ERR_INVALID_ARGUMENT, "cannot open");
  CHECK_ERROR(mlc_model_load_safetensors(m, dir.path.c_str()),
              MLC_ERR_INVALID_ARGUMENT, "is not a regular file");
  CHECK_ERROR(mlc_model_load_safetensors(m, nullptr), MLC_ERR_INVALID_ARGUMENT,
              "safetensors path is NULL");
  CHECK_ERROR(mlc_model_save_safetensors(m, nullptr, 0),
              MLC_ERR_INVALID_ARGUMENT, "safetensors path is NULL");

  // A failed save leaves nothing behind.
  std::string unwritable = dir.file("no-such-dir/w.safetensors");
  CHECK_ERROR(mlc_model_save_safetensors(m, unwritable.c_str(), 0),
              MLC_ERR_INVALID_ARGUMENT, "cannot create");
  unlink(path.c_str());
  CHECK(dir.files().empty());
  // Saving onto a directory fails at the rename: the temporary goes away.
  std::string sub = dir.file("sub");
  REQUIRE(mkdir(sub.c_str(), 0755) == 0);
  CHECK_ERROR(mlc_model_save_safetensors(m, sub.c_str(), 0),
              MLC_ERR_INVALID_ARGUMENT, "cannot write '" + sub + "'");
  CHECK(dir.files().size() == 1);
  rmdir(sub.c_str());
  checkVariables(m, init);
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

TEST_CASE("runs from several threads on a trainable model", "[train]") {
  Model model(fakeModel("fake_train_regression"));
  const int kThreads = 6, kRuns = 300;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  RegressionState init;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns; ++r) {
        float x[6];
        for (int i = 0; i < 6; ++i)
          x[i] = float(t + r + i) * 0.1f;
        std::vector<float> want = expectedInference(init.w, init.b, x);
        std::vector<float> got(2);
        mlc_tensor in = {x, MLC_F32, 2, kInferX};
        mlc_tensor out = {got.data(), MLC_F32, 2, kInferY};
        if (mlc_model_run(model.m, &in, 1, &out, 1) != MLC_OK ||
            std::fabs(got[0] - want[0]) > 1e-5f ||
            std::fabs(got[1] - want[1]) > 1e-5f)
          ++failures;
      }
    });
  }
  for (std::thread &t : threads)
    t.join();
  CHECK(failures == 0);
}

TEST_CASE("runs during training see whole steps", "[train]") {
  // The parameters after each step, from a model trained alone.
  const int kSteps = 200;
  std::vector<RegressionState> snapshots(1);
  for (int s = 0; s < kSteps; ++s) {
    float x[12], y[4];
    batch(s, x, y);
    snapshots.push_back(snapshots.back());
    snapshots.back().train(x, y);
  }

  Model model(fakeModel("fake_train_regression"));
  std::atomic<bool> done{false};
  std::atomic<int> failures{0}, runs{0}, midTraining{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&] {
      size_t last = 0;
      while (!done) {
        std::vector<float> got(2);
        mlc_tensor in = {const_cast<float *>(kInferInput), MLC_F32, 2, kInferX};
        mlc_tensor out = {got.data(), MLC_F32, 2, kInferY};
        if (mlc_model_run(model.m, &in, 1, &out, 1) != MLC_OK) {
          ++failures;
          continue;
        }
        ++runs;
        // Some snapshot at or after the last one seen must explain both
        // outputs: never a mix of two steps' parameters.
        size_t k = last;
        for (; k < snapshots.size(); ++k) {
          std::vector<float> want =
              expectedInference(snapshots[k].w, snapshots[k].b, kInferInput);
          if (std::fabs(got[0] - want[0]) <= 1e-5f &&
              std::fabs(got[1] - want[1]) <= 1e-5f)
            break;
        }
        if (k == snapshots.size())
          ++failures;
        else
          last = k;
        if (k > 0 && k < snapshots.size() - 1)
          ++midTraining;
      }
    });
  }
  // Interleave: every few steps, wait (boundedly) for the readers to run.
  auto waitForRuns = [&] {
    int before = runs;
    for (int spin = 0; spin < 100000 && runs <= before + 4; ++spin)
      std::this_thread::yield();
  };
  for (int s = 0; s < kSteps; ++s) {
    if (s % 5 == 0)
      waitForRuns();
    REQUIRE(step(model.m, s, nullptr) == MLC_OK);
  }
  waitForRuns();
  done = true;
  for (std::thread &t : readers)
    t.join();
  CHECK(failures == 0);
  CHECK(runs > 0);
  CHECK(midTraining > 0);
  checkVariables(model.m, snapshots.back());
}
