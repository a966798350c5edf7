//===- Error.cpp - the thread's last error --------------------------------===//

#include "Error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

namespace {
// Plain C TLS (not C++ thread_local) so no libstdc++ support is needed.
__thread char tlsError[4096];
__thread mlc_status tlsStatus;
} // namespace

mlc_status mlc::rt::setError(mlc_status status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(tlsError, sizeof(tlsError), fmt, args);
  va_end(args);
  tlsStatus = status;
  return status;
}

void mlc::rt::formatShape(char *buf, size_t size, const int64_t *shape,
                          int32_t rank) {
  if (size == 0)
    return;
  size_t len = strlen(buf);
  auto put = [&](const char *s) {
    while (*s && len + 1 < size)
      buf[len++] = *s++;
    buf[len] = '\0';
  };
  put("[");
  for (int32_t i = 0; i < rank; ++i) {
    char num[32];
    snprintf(num, sizeof(num), i ? ",%lld" : "%lld", (long long)shape[i]);
    put(num);
  }
  put("]");
}

const char *mlc_last_error(void) { return tlsError; }

mlc_status mlc_last_status(void) { return tlsStatus; }
