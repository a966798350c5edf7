//===- WeightsMapping.cpp - put a model's weights onto its region ---------===//
//
// The model.so has a zero-filled, page-aligned region where its code
// expects the weights; the payload is mapped over it (MAP_FIXED, read-only,
// private), so the weights are paged in from the file on first use and
// shared between processes, never copied. dlclose unmaps the region with
// the rest of the model. Everything that can be checked without reading
// the payload is checked first.
//
//===----------------------------------------------------------------------===//

#include "WeightsMapping.h"
#include "FileIO.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace mlc::rt;

bool mlc::rt::placeWeights(const WeightsSource &source,
                           const mlc_weights_header &expected, void *region,
                           const char *model, char *why, size_t whySize) {
  mlc_weights_header header;
  uint64_t needed = uint64_t(MLC_WEIGHTS_HEADER_BYTES) + expected.payload_bytes;
  if (source.available < sizeof(header) ||
      !readAll(source.fd, &header, sizeof(header), off_t(source.offset)) ||
      memcmp(header.magic, MLC_WEIGHTS_MAGIC, sizeof(header.magic)) != 0) {
    snprintf(why, whySize, "%s does not hold mlc weights (model '%s')%s",
             source.what, model, source.notWeightsHint);
    return false;
  }
  if (header.payload_bytes != expected.payload_bytes ||
      header.fingerprint != expected.fingerprint) {
    snprintf(why, whySize,
             "%s belongs to another model or another compile of it (%llu "
             "bytes, fingerprint %016llx; model '%s' needs %llu bytes, "
             "fingerprint %016llx)%s",
             source.what, (unsigned long long)header.payload_bytes,
             (unsigned long long)header.fingerprint, model,
             (unsigned long long)expected.payload_bytes,
             (unsigned long long)expected.fingerprint, source.mismatchHint);
    return false;
  }
  if (source.available < needed) {
    snprintf(why, whySize, "%s is truncated: %llu bytes, model '%s' needs %llu",
             source.what, (unsigned long long)source.available, model,
             (unsigned long long)needed);
    return false;
  }
  if (expected.payload_bytes == 0)
    return true;
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t at = reinterpret_cast<uintptr_t>(region);
  if (page <= 0 || MLC_WEIGHTS_ALIGN % page != 0 || at % page != 0) {
    snprintf(why, whySize,
             "model '%s': its weights region is not aligned to this "
             "machine's %ld-byte pages",
             model, page);
    return false;
  }
  size_t bytes = (expected.payload_bytes + page - 1) / page * page;
  uint64_t payloadAt = source.offset + MLC_WEIGHTS_HEADER_BYTES;
  if (payloadAt % uint64_t(page) == 0) {
    if (mmap(region, bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, source.fd,
             off_t(payloadAt)) != MAP_FAILED)
      return true;
    snprintf(why, whySize, "cannot map %s: %s", source.what, strerror(errno));
    return false;
  }
  // A tool that rewrote the file may have moved the payload off a page
  // boundary: read it into the (writable, zero-filled) region instead.
  if (!readAll(source.fd, region, expected.payload_bytes, off_t(payloadAt)) ||
      mprotect(region, bytes, PROT_READ) != 0) {
    snprintf(why, whySize, "cannot read %s: %s", source.what, strerror(errno));
    return false;
  }
  return true;
}
