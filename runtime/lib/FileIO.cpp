//===- FileIO.cpp - whole reads and writes on file descriptors ------------===//

#include "FileIO.h"

#include <errno.h>
#include <unistd.h>

bool mlc::rt::writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

bool mlc::rt::readAll(int fd, void *buf, size_t size, off_t offset) {
  char *p = static_cast<char *>(buf);
  while (size > 0) {
    ssize_t n = pread(fd, p, size, offset);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
    offset += n;
  }
  return true;
}
