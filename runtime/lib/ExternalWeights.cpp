//===- ExternalWeights.cpp - map a model's weights file -------------------===//
//
// The model.so has a zero-filled, page-aligned region where its code
// expects the weights; the file's payload is mapped over it (MAP_FIXED,
// read-only, private), so the weights are paged in from the file on first
// use and shared between processes, never copied. dlclose unmaps the region
// with the rest of the model. Everything that can be checked without
// reading the payload is checked first: the file must exist, hold the
// whole payload and carry the header this model.so was compiled with.
//
//===----------------------------------------------------------------------===//

#include "ExternalWeights.h"
#include "Error.h"
#include "FileIO.h"
#include "mlc/model_abi.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlc::rt;

namespace {
/// The weights file's path: `name` in the model.so's directory.
char *weightsPath(const char *modelPath, const char *name) {
  const char *slash = strrchr(modelPath, '/');
  size_t dir = slash ? size_t(slash - modelPath) + 1 : 0;
  size_t n = strlen(name);
  char *path = static_cast<char *>(malloc(dir + n + 1));
  if (!path)
    return nullptr;
  memcpy(path, modelPath, dir);
  memcpy(path + dir, name, n + 1);
  return path;
}

mlc_status mapFile(mlc_model *model, const mlc_external_weights *info,
                   void *region, const char *path) {
  const char *hint = " (the model was compiled with --weights=external: keep "
                     "the weights file it wrote next to it)";
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return setError(MLC_ERR_LOAD,
                    "cannot open the weights file '%s' of model "
                    "'%s': %s%s",
                    path, model->path, strerror(errno), hint);
  mlc_status status = MLC_OK;
  struct stat st;
  mlc_weights_header header;
  uint64_t needed =
      uint64_t(MLC_WEIGHTS_HEADER_BYTES) + info->header.payload_bytes;
  if (fstat(fd, &st) != 0) {
    status = setError(MLC_ERR_LOAD, "cannot stat the weights file '%s': %s",
                      path, strerror(errno));
  } else if (uint64_t(st.st_size) < sizeof(header) ||
             !readAll(fd, &header, sizeof(header), 0) ||
             memcmp(header.magic, MLC_WEIGHTS_MAGIC, sizeof(header.magic))) {
    status =
        setError(MLC_ERR_LOAD, "'%s' is not an mlc weights file (model '%s')%s",
                 path, model->path, hint);
  } else if (header.payload_bytes != info->header.payload_bytes ||
             header.fingerprint != info->header.fingerprint) {
    status = setError(
        MLC_ERR_LOAD,
        "the weights file '%s' belongs to another model or another compile "
        "of it (%llu bytes, fingerprint %016llx; model '%s' needs %llu "
        "bytes, fingerprint %016llx): use the weights file written with "
        "this model.so",
        path, (unsigned long long)header.payload_bytes,
        (unsigned long long)header.fingerprint, model->path,
        (unsigned long long)info->header.payload_bytes,
        (unsigned long long)info->header.fingerprint);
  } else if (uint64_t(st.st_size) < needed) {
    status = setError(MLC_ERR_LOAD,
                      "the weights file '%s' is truncated: %llu bytes, model "
                      "'%s' needs %llu",
                      path, (unsigned long long)st.st_size, model->path,
                      (unsigned long long)needed);
  } else if (info->header.payload_bytes > 0) {
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = reinterpret_cast<uintptr_t>(region);
    if (page <= 0 || MLC_WEIGHTS_ALIGN % page != 0 || at % page != 0) {
      status = setError(MLC_ERR_LOAD,
                        "model '%s': its weights region is not aligned to "
                        "this machine's %ld-byte pages",
                        model->path, page);
    } else {
      size_t bytes = (info->header.payload_bytes + page - 1) / page * page;
      void *mapped = mmap(region, bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
                          MLC_WEIGHTS_HEADER_BYTES);
      if (mapped == MAP_FAILED)
        status = setError(MLC_ERR_LOAD, "cannot map the weights file '%s': %s",
                          path, strerror(errno));
    }
  }
  close(fd);
  return status;
}
} // namespace

mlc_status mlc::rt::mapExternalWeights(mlc_model *model) {
  dlerror();
  auto *info = static_cast<const mlc_external_weights *>(
      dlsym(model->handle, MLC_SYM_EXTERNAL_WEIGHTS));
  if (!info)
    return MLC_OK;
  void *region = dlsym(model->handle, MLC_SYM_WEIGHTS_REGION);
  if (!region || memchr(info->file, 0, sizeof(info->file)) == nullptr ||
      memcmp(info->header.magic, MLC_WEIGHTS_MAGIC,
             sizeof(info->header.magic)) != 0)
    return setError(MLC_ERR_LOAD,
                    "'%s' has a malformed external weights description",
                    model->path);
  char *path = weightsPath(model->path, info->file);
  if (!path)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'",
                    model->path);
  mlc_status status = mapFile(model, info, region, path);
  free(path);
  return status;
}
