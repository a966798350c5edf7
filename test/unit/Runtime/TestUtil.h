//===- TestUtil.h - helpers shared by the runtime unit tests ----*- C++ -*-===//
//
// Opening the fake models (fake_model.c, fake_train_model.c) and checking
// the runtime's error reports. Shared by RuntimeTest.cpp and TrainTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_TEST_UNIT_RUNTIME_TESTUTIL_H
#define MLC_TEST_UNIT_RUNTIME_TESTUTIL_H

#include "mlc/runtime.h"

#include <catch2/catch.hpp>

#include <cstdlib>
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
