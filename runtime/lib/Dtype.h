//===- Dtype.h - element types ----------------------------------*- C++ -*-===//
//
// The dtype table behind mlc_dtype_name/size/from_name (Dtype.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_DTYPE_H
#define MLC_RUNTIME_DTYPE_H

#include "mlc/runtime.h"

#include <stddef.h>

namespace mlc {
namespace rt {

/// Formats a caller-provided dtype value for messages, invalid ones
/// included. An int, not an mlc_dtype: C callers may store any value, and an
/// out-of-range enum value would be undefined in C++.
void formatDtype(char *buf, size_t size, int dtype);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_DTYPE_H
