//===- ExternalWeights.cpp - map a model's weights file -------------------===//
//
// The file must exist, hold the whole payload and carry the header this
// model.so was compiled with; then its payload is mapped onto the model's
// weights region (WeightsMapping.h).
//
//===----------------------------------------------------------------------===//

#include "ExternalWeights.h"
#include "Error.h"
#include "WeightsMapping.h"
#include "mlc/model_abi.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  struct stat st;
  if (fstat(fd, &st) != 0) {
    mlc_status status =
        setError(MLC_ERR_LOAD, "cannot stat the weights file '%s': %s", path,
                 strerror(errno));
    close(fd);
    return status;
  }
  char what[1100], why[2048];
  snprintf(what, sizeof(what), "the weights file '%s'", path);
  WeightsSource source = {fd,
                          0,
                          uint64_t(st.st_size),
                          what,
                          hint,
                          ": use the weights file written with this "
                          "model.so"};
  bool placed =
      placeWeights(source, info->header, region, model->path, why, sizeof(why));
  close(fd);
  return placed ? MLC_OK : setError(MLC_ERR_LOAD, "%s", why);
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
