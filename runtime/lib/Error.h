//===- Error.h - the thread's last error ------------------------*- C++ -*-===//
//
// Every runtime function reports failure through setError, which
// mlc_last_error/mlc_last_status read back on the same thread.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_ERROR_H
#define MLC_RUNTIME_ERROR_H

#include "mlc/runtime.h"

#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// Sets this thread's last error; returns `status` for convenience.
mlc_status setError(mlc_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Appends "[d0,d1,...]" to buf (NUL-terminated, truncated to size).
void formatShape(char *buf, size_t size, const int64_t *shape, int32_t rank);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_ERROR_H
