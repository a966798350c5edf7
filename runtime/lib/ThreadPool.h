//===- ThreadPool.h - libomp entry points for compiled kernels --*- C++ -*-===//
//
// Kernels parallelized with scf.parallel are lowered through MLIR's OpenMP
// dialect to calls into libomp's __kmpc_* interface. The runtime implements
// the entry points that code calls (see ThreadPool.cpp), so a model.so needs
// no libomp. All of them are hidden: a process that also loads the real
// libomp never binds its calls to ours or ours to it.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_THREADPOOL_H
#define MLC_RUNTIME_THREADPOOL_H

#include <stdint.h>

namespace mlc {
namespace rt {

/// The largest team a parallel region gets.
constexpr int32_t kMaxThreads = 64;
/// The most pointer arguments __kmpc_fork_call passes to a microtask.
constexpr int32_t kMaxForkArgs = 4;
/// libomp's schedule kinds (kmp_sched_t) that static_init implements; it
/// treats any other kind as kSchedStatic.
enum : int32_t { kSchedStaticChunked = 33, kSchedStatic = 34 };

/// The number of CPUs the process may run on (its affinity mask, else the
/// online ones), clamped to [1, kMaxThreads].
int32_t defaultNumThreads();
/// The team size a thread-count setting asks for: min(n, kMaxThreads) for
/// n >= 1, defaultNumThreads() otherwise.
int32_t effectiveNumThreads(int32_t setting);

/// Joins the pool's workers (they are started again on demand). Runs when the
/// runtime copy is unloaded (dlclose of a model.so, process exit); exposed for
/// tests. Must not be called from inside a parallel region.
void stopThreadPool();

} // namespace rt
} // namespace mlc

extern "C" {

/// libomp's kmpc_micro: the outlined body of a parallel region. It is called
/// as fn(&gtid, &btid, args...) with exactly the fork's argc pointer
/// arguments (btid: the thread's index in its team).
typedef void (*mlc_kmpc_micro)(int32_t *gtid, int32_t *btid, ...);

// `ident` (a source location) is ignored everywhere, as is `gtid`: the
// runtime keeps each thread's team in thread-local storage.
int32_t __kmpc_global_thread_num(void *ident);
void __kmpc_fork_call(void *ident, int32_t argc, mlc_kmpc_micro microtask, ...);
void __kmpc_push_num_threads(void *ident, int32_t gtid, int32_t numThreads);
void __kmpc_for_static_init_4(void *ident, int32_t gtid, int32_t schedtype,
                              int32_t *plastiter, int32_t *plower,
                              int32_t *pupper, int32_t *pstride, int32_t incr,
                              int32_t chunk);
void __kmpc_for_static_init_4u(void *ident, int32_t gtid, int32_t schedtype,
                               int32_t *plastiter, uint32_t *plower,
                               uint32_t *pupper, int32_t *pstride, int32_t incr,
                               int32_t chunk);
void __kmpc_for_static_init_8(void *ident, int32_t gtid, int32_t schedtype,
                              int32_t *plastiter, int64_t *plower,
                              int64_t *pupper, int64_t *pstride, int64_t incr,
                              int64_t chunk);
void __kmpc_for_static_init_8u(void *ident, int32_t gtid, int32_t schedtype,
                               int32_t *plastiter, uint64_t *plower,
                               uint64_t *pupper, int64_t *pstride, int64_t incr,
                               int64_t chunk);
void __kmpc_for_static_fini(void *ident, int32_t gtid);
void __kmpc_barrier(void *ident, int32_t gtid);

/// The model ABI's thread-count setter (see mlc/model_abi.h): exported; the
/// definition is weak so that a test model can define its own.
__attribute__((visibility("default"))) void mlc_abi_set_num_threads(int32_t n);

} // extern "C"

#endif // MLC_RUNTIME_THREADPOOL_H
