//===- FileIO.h - whole reads and writes on file descriptors ----*- C++ -*-===//

#ifndef MLC_RUNTIME_FILEIO_H
#define MLC_RUNTIME_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

namespace mlc {
namespace rt {

/// Writes all of `size` bytes (retrying interrupted and short writes);
/// false on an error.
bool writeAll(int fd, const void *data, size_t size);

/// Reads all of `size` bytes at `offset` (retrying interrupted and short
/// reads); false on an error or the end of the file first.
bool readAll(int fd, void *buf, size_t size, off_t offset);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_FILEIO_H
