//===- Workspace.cpp - scratch memory of model calls ----------------------===//

#include "Workspace.h"
#include "Error.h"

#include <stdlib.h>

using namespace mlc::rt;

mlc_status mlc::rt::allocateWorkspace(uint64_t bytes, void **out) {
  *out = nullptr;
  if (bytes == 0)
    return MLC_OK;
  // Round up so aligned allocators accept the size.
  uint64_t rounded = (bytes + 63) & ~uint64_t(63);
  if (rounded < bytes || posix_memalign(out, 64, size_t(rounded)) != 0) {
    *out = nullptr;
    return setError(MLC_ERR_OUT_OF_MEMORY,
                    "cannot allocate the %llu-byte workspace",
                    (unsigned long long)bytes);
  }
  return MLC_OK;
}

void mlc::rt::initWorkspaceCache(WorkspaceCache &cache) {
  pthread_mutex_init(&cache.lock, nullptr);
}

void mlc::rt::destroyWorkspaceCache(WorkspaceCache &cache) {
  for (void *w : cache.slots)
    free(w);
  pthread_mutex_destroy(&cache.lock);
}

mlc_status mlc::rt::takeWorkspace(WorkspaceCache &cache, uint64_t bytes,
                                  void **out) {
  *out = nullptr;
  pthread_mutex_lock(&cache.lock);
  for (void *&slot : cache.slots)
    if (slot) {
      *out = slot;
      slot = nullptr;
      break;
    }
  pthread_mutex_unlock(&cache.lock);
  if (*out)
    return MLC_OK;
  return allocateWorkspace(bytes, out);
}

void mlc::rt::returnWorkspace(WorkspaceCache &cache, void *workspace) {
  if (!workspace)
    return;
  pthread_mutex_lock(&cache.lock);
  for (void *&slot : cache.slots)
    if (!slot) {
      slot = workspace;
      workspace = nullptr;
      break;
    }
  pthread_mutex_unlock(&cache.lock);
  free(workspace);
}
