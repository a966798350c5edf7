//===- Compare.cpp - printing outputs and checking them (--expect) --------===//

#include "Compare.h"
#include "TensorFile.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace mlc::run {

std::string formatElement(mlc_dtype dtype, const uint8_t *data, uint64_t i) {
  char buf[64];
  if (npy::isFloatDType(dtype))
    snprintf(buf, sizeof(buf), "%.7g", npy::loadFloat(dtype, data, i));
  else if (dtype == MLC_BOOL)
    return data[i] == 0   ? "False"
           : data[i] == 1 ? "True"
                          : std::to_string(data[i]);
  else if (dtype == MLC_U64)
    snprintf(buf, sizeof(buf), "%" PRIu64,
             uint64_t(npy::loadInt(dtype, data, i)));
  else
    snprintf(buf, sizeof(buf), "%" PRId64, npy::loadInt(dtype, data, i));
  return buf;
}

void printOutput(const Slot &slot, const uint8_t *data) {
  printf("%s: %s\n", slot.name.c_str(),
         tensorio::typeString(slot.dtype, slot.shape).c_str());
  if (slot.shape.empty()) {
    printf("%s\n", formatElement(slot.dtype, data, 0).c_str());
    return;
  }
  const uint64_t kShown = 10;
  std::string line = "[";
  for (uint64_t i = 0; i < slot.numElements && i < kShown; ++i)
    line += (i ? ", " : "") + formatElement(slot.dtype, data, i);
  if (slot.numElements > kShown)
    line += ", ... (" + std::to_string(slot.numElements) + " elements)";
  printf("%s]\n", line.c_str());
}

/// The flat index as a multi-index "[i,j,...]" for the mismatch report.
static std::string multiIndex(const std::vector<int64_t> &shape,
                              uint64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = int64_t(flat % uint64_t(shape[d]));
    flat /= uint64_t(shape[d]);
  }
  return tensorio::shapeString(index);
}

bool compare(const Slot &slot, const uint8_t *got, const npy::Array &expected,
             const std::string &path, double rtol, double atol) {
  uint64_t mismatches = 0, worst = 0;
  double worstErr = -1, maxErr = 0;
  for (uint64_t i = 0; i < slot.numElements; ++i) {
    double g, e;
    if (npy::isFloatDType(slot.dtype)) {
      g = npy::loadFloat(slot.dtype, got, i);
      e = npy::loadFloat(slot.dtype, expected.data.data(), i);
      if (std::isnan(g) && std::isnan(e))
        continue;
      if (g == e)
        continue;
    } else {
      int64_t gi = npy::loadInt(slot.dtype, got, i);
      int64_t ei = npy::loadInt(slot.dtype, expected.data.data(), i);
      if (gi == ei)
        continue;
      g = npy::intValue(slot.dtype, gi);
      e = npy::intValue(slot.dtype, ei);
    }
    // NaN against a number, or infinities that differ, is infinitely wrong.
    double err = std::fabs(g - e);
    if (std::isnan(err))
      err = INFINITY;
    if (err <= atol + rtol * std::fabs(e)) {
      maxErr = std::max(maxErr, err);
      continue;
    }
    ++mismatches;
    if (err > worstErr) {
      worstErr = err;
      worst = i;
    }
  }
  if (mismatches == 0) {
    printf("%s: matches '%s' (%" PRIu64 " elements, max abs err %.3g)\n",
           slot.name.c_str(), path.c_str(), slot.numElements, maxErr);
    return true;
  }
  double expectedWorst =
      npy::isFloatDType(slot.dtype)
          ? npy::loadFloat(slot.dtype, expected.data.data(), worst)
          : npy::intValue(
                slot.dtype,
                npy::loadInt(slot.dtype, expected.data.data(), worst));
  double relErr = worstErr / std::fabs(expectedWorst);
  fprintf(stderr,
          "mlc-run: error: output '%s' does not match '%s': %" PRIu64
          " of %" PRIu64 " elements differ (rtol=%g, atol=%g)\n"
          "  worst at index %" PRIu64 " %s: got %s, expected %s, abs err %.6g, "
          "rel err %.6g\n",
          slot.name.c_str(), path.c_str(), mismatches, slot.numElements, rtol,
          atol, worst, multiIndex(slot.shape, worst).c_str(),
          formatElement(slot.dtype, got, worst).c_str(),
          formatElement(slot.dtype, expected.data.data(), worst).c_str(),
          worstErr, relErr);
  return false;
}

} // namespace mlc::run
