//===- Compare.h - printing and checking outputs ----------------*- C++ -*-===//
#ifndef MLC_TOOLS_MLC_RUN_COMPARE_H
#define MLC_TOOLS_MLC_RUN_COMPARE_H

#include "Common.h"

namespace mlc::run {

/// Element i as printed: %.7g for floats, True/False for bools.
std::string formatElement(mlc_dtype dtype, const uint8_t *data, uint64_t i);

/// Prints "<name>: <type>" and the first ten elements (--print).
void printOutput(const Slot &slot, const uint8_t *data);

/// Compares an output with its expected values (same type): elements match
/// if |got - expected| <= atol + rtol * |expected|, NaN only NaN. Prints a
/// "matches" line, or an error with the worst element, and returns whether
/// it matched.
bool compare(const Slot &slot, const uint8_t *got, const npy::Array &expected,
             const std::string &path, double rtol, double atol);

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_COMPARE_H
