//===- TestUtil.h - helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// Opening the fake models (fake_model.c, fake_train_model.c), running
// fake_model, and checking the runtime's error reports. Shared by the
// runtime's Catch2 tests.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_TEST_UNIT_RUNTIME_TESTUTIL_H
#define MLC_TEST_UNIT_RUNTIME_TESTUTIL_H

#include "mlc/runtime.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

namespace runtimetest {

/// The path of a fake model built next to the tests (or in
/// $MLC_FAKE_MODEL_DIR).
inline std::string fakeModel(const char *name) {
  const char *dir = getenv("MLC_FAKE_MODEL_DIR");
  return std::string(dir ? dir : MLC_FAKE_MODEL_DIR) + "/" + name + ".so";
}

/// Owns a model; fails the test if it does not load.
struct Model {
  mlc_model *m;
  explicit Model(const std::string &path) : m(mlc_model_open(path.c_str())) {
    INFO(mlc_last_error());
    REQUIRE(m != nullptr);
  }
  ~Model() { mlc_model_close(m); }
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;
};

inline bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

constexpr int64_t kShapeA[] = {2, 3};
constexpr int64_t kShapeB[] = {3};

/// Buffers for one run of fake_model: inputs a, b and outputs y, positive,
/// total, with outputs prefilled with a sentinel to detect writes.
struct FakeRun {
  float a[6];
  int64_t b[3];
  float y[6];
  uint8_t positive[6];
  int32_t total;
  mlc_tensor inputs[2];
  mlc_tensor outputs[3];

  explicit FakeRun(float seed = 0) { reset(seed); }
  // Holds pointers to itself: no copies.
  FakeRun(const FakeRun &) = delete;
  FakeRun &operator=(const FakeRun &) = delete;

  void reset(float seed = 0) {
    for (int i = 0; i < 6; ++i)
      a[i] = float(i) - 2.5f + seed;
    for (int j = 0; j < 3; ++j)
      b[j] = j * 10 - 5;
    resetOutputs();
    inputs[0] = {a, MLC_F32, 2, kShapeA};
    inputs[1] = {b, MLC_I64, 1, kShapeB};
    outputs[0] = {y, MLC_F32, 2, kShapeA};
    outputs[1] = {positive, MLC_BOOL, 2, kShapeA};
    outputs[2] = {&total, MLC_I32, 0, nullptr};
  }
  void resetOutputs() {
    memset(y, 0xAB, sizeof(y));
    memset(positive, 0xAB, sizeof(positive));
    memset(&total, 0xAB, sizeof(total));
  }
  bool outputsUntouched() const {
    FakeRun fresh;
    return memcmp(y, fresh.y, sizeof(y)) == 0 &&
           memcmp(positive, fresh.positive, sizeof(positive)) == 0 &&
           memcmp(&total, &fresh.total, sizeof(total)) == 0;
  }
  bool outputsCorrect() const {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j) {
        float want = a[i * 3 + j] + float(b[j]);
        if (y[i * 3 + j] != want || positive[i * 3 + j] != (want > 0))
          return false;
      }
    }
    return total == int32_t(b[0] + b[1] + b[2]);
  }
  mlc_status run(const mlc_model *m) {
    return mlc_model_run(m, inputs, 2, outputs, 3);
  }
};

} // namespace runtimetest

/// Checks that `status` (evaluated once, before the error is read) is
/// `expectedStatus` and that the last error contains `substring`.
#define CHECK_ERROR(status, expectedStatus, substring)                         \
  do {                                                                         \
    mlc_status checkedStatus = (status);                                       \
    INFO("last error: " << mlc_last_error());                                  \
    CHECK(checkedStatus == (expectedStatus));                                  \
    CHECK(runtimetest::contains(mlc_last_error(), substring));                 \
  } while (false)

#endif // MLC_TEST_UNIT_RUNTIME_TESTUTIL_H
