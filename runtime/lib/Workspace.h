//===- Workspace.h - scratch memory of model calls --------------*- C++ -*-===//

#ifndef MLC_RUNTIME_WORKSPACE_H
#define MLC_RUNTIME_WORKSPACE_H

#include "mlc/runtime.h"

#include <pthread.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// Allocates a 64-byte aligned block of at least `bytes` (NULL for 0).
/// Sets the error.
mlc_status allocateWorkspace(uint64_t bytes, void **out);

/// Workspaces of finished runs, reused by the next ones: a fresh
/// multi-megabyte allocation is fresh pages, and faulting them in cost
/// MobileNetV2 a tenth of its run time. Guarded by `lock`.
struct WorkspaceCache {
  static constexpr int kSize = 4;
  pthread_mutex_t lock;
  void *slots[kSize];
};

/// `cache` must be zero-initialized.
void initWorkspaceCache(WorkspaceCache &cache);
/// Frees the cached workspaces.
void destroyWorkspaceCache(WorkspaceCache &cache);
/// A workspace of `bytes` for one run: a cached one when a finished run left
/// one, else a new one. Sets the error.
mlc_status takeWorkspace(WorkspaceCache &cache, uint64_t bytes, void **out);
/// Gives a run's workspace back to the cache (freed when the cache is full).
void returnWorkspace(WorkspaceCache &cache, void *workspace);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_WORKSPACE_H
