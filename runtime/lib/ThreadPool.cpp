//===- ThreadPool.cpp - a thread pool behind libomp's kmpc entry points ---===//
//
// Compiled kernels call the few __kmpc_* functions that MLIR's OpenMP
// translation emits for scf.parallel (see ThreadPool.h); this file implements
// them with libomp's semantics on a small pool of persistent pthreads.
//
// - Every runtime copy (each model.so has one) has its own pool, started by
//   its first parallel region and joined when the copy is unloaded (dlclose,
//   exit), so no worker ever runs code that has been unmapped.
// - One team runs at a time. A fork_call that finds the pool busy (another
//   application thread is in a parallel region) runs its region serially on
//   the calling thread instead of waiting: concurrent runs of a model stay
//   correct and never queue behind each other, at the price of parallelism
//   for all but one of them. A fork_call from inside a region (nested
//   parallelism) runs serially too.
// - Team size: __kmpc_push_num_threads's value for the next region, else the
//   calling thread's setting (mlc_abi_set_num_threads, which the runtime calls
//   with mlc_model_set_num_threads's value before each call into the model),
//   else the number of CPUs the process may run on (its affinity mask);
//   at most kMaxThreads.
// - Waiting threads (idle workers, barriers, the caller waiting for its team)
//   spin for kSpinNs, then sleep on a condition variable, so an idle model
//   costs no CPU.
// - Each thread's team size and index live in thread-local storage; the gtid
//   arguments are not needed.
// - A child of fork() forgets the parent's workers and starts its own.
//
// The runtime avoids libstdc++, so atomics are GCC builtins, not <atomic>.
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

using namespace mlc::rt;

namespace {

/// How long a waiting thread spins before it sleeps (without yielding: a
/// sched_yield() loop lost its CPU to other processes' busy threads for
/// whole time slices, 8x slower than this spin): long enough to bridge
/// the serial kernels between the parallel loops of one model run (waking a
/// sleeper took 50-100 us on a 2-CPU VM: with 40 us of spinning, a 4.8M-MAC
/// 1x1 convolution ran slower on two threads than on one), short enough
/// that an idle pool soon costs nothing. libomp spins 200 ms by default.
constexpr uint64_t kSpinNs = 2000000;

[[noreturn]] void fatal(const char *message, long value) {
  fprintf(stderr, "mlc runtime: fatal error: %s%ld\n", message, value);
  abort();
}

template <typename T> T atomicLoad(const T &v) {
  return __atomic_load_n(&v, __ATOMIC_SEQ_CST);
}
template <typename T> void atomicStore(T &v, T value) {
  __atomic_store_n(&v, value, __ATOMIC_SEQ_CST);
}

//===----------------------------------------------------------------------===//
// Shared state. Plain globals with constant initializers: nothing runs before
// main or at library load.
//===----------------------------------------------------------------------===//

// Sleeping waiters block on gCond; gSleepers counts them so wakers skip the
// mutex when nobody sleeps.
pthread_mutex_t gMutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t gCond = PTHREAD_COND_INITIALIZER;
int32_t gSleepers;

// 1 while a team runs (or the pool is being stopped).
int32_t gBusy;
// The current region: (sequence number << 8) | team size. A new value starts
// the region; workers whose index is below the size join it.
uint64_t gWork;
// Workers of the running region that have not finished it yet.
int32_t gPending;
bool gShutdown;
// The running region's microtask and arguments, written by its caller before
// it publishes gWork, read by the workers after they see it.
mlc_kmpc_micro gMicrotask;
int32_t gArgc;
void *gArgs[kMaxForkArgs];
// Team barrier: arrivals in the current phase, and the phase.
int32_t gBarrierArrived;
uint32_t gBarrierPhase;

// Workers; only the holder of gBusy starts or joins them.
pthread_t gWorkers[kMaxThreads - 1];
uint64_t gWorkerStart[kMaxThreads - 1]; // gWork when each was started
int32_t gNumWorkers;
bool gAtForkRegistered;

int32_t gOnlineCpus; // 0 until first computed

// Per thread.
__thread int32_t tlsTeamSize;   // 0 outside any parallel region
__thread int32_t tlsTid;        // index in the team
__thread int32_t tlsGtid;       // 0 for application threads, worker index + 1
__thread int32_t tlsNumThreads; // mlc_abi_set_num_threads; 0: default
__thread int32_t tlsPushed;     // __kmpc_push_num_threads; 0: none

//===----------------------------------------------------------------------===//
// Waiting
//===----------------------------------------------------------------------===//

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/// Returns once done() holds: spins for kSpinNs, then sleeps. done() must
/// read the state it checks with seq_cst loads, and whoever makes it true
/// must call wakeSleepers() after a seq_cst write: the waiter counts itself
/// in gSleepers before its last check, the waker checks gSleepers after its
/// write, so one of them sees the other and no wakeup is lost.
template <typename Done> void waitUntil(Done done) {
  if (done())
    return;
  uint64_t deadline = nowNs() + kSpinNs;
  for (unsigned i = 1;; ++i) {
    cpuRelax();
    if (done())
      return;
    if (i % 64 == 0 && nowNs() >= deadline)
      break;
  }
  pthread_mutex_lock(&gMutex);
  __atomic_fetch_add(&gSleepers, 1, __ATOMIC_SEQ_CST);
  while (!done())
    pthread_cond_wait(&gCond, &gMutex);
  __atomic_fetch_sub(&gSleepers, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&gMutex);
}

void wakeSleepers() {
  if (atomicLoad(gSleepers) == 0)
    return;
  pthread_mutex_lock(&gMutex);
  pthread_cond_broadcast(&gCond);
  pthread_mutex_unlock(&gMutex);
}

bool tryAcquirePool() {
  int32_t expected = 0;
  return __atomic_compare_exchange_n(&gBusy, &expected, 1, false,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void releasePool() { atomicStore(gBusy, 0); }

//===----------------------------------------------------------------------===//
// Teams
//===----------------------------------------------------------------------===//

/// Runs the microtask as thread `tid` of a team of `size`, with the thread's
/// team state set for the static_init and barrier calls it makes.
void runMember(mlc_kmpc_micro fn, int32_t argc, void *const *args, int32_t tid,
               int32_t size) {
  int32_t savedSize = tlsTeamSize, savedTid = tlsTid;
  tlsTeamSize = size;
  tlsTid = tid;
  int32_t gtid = tlsGtid, btid = tid;
  // Call through the exact (non-variadic) type of the outlined function.
  using Fn0 = void (*)(int32_t *, int32_t *);
  using Fn1 = void (*)(int32_t *, int32_t *, void *);
  using Fn2 = void (*)(int32_t *, int32_t *, void *, void *);
  using Fn3 = void (*)(int32_t *, int32_t *, void *, void *, void *);
  using Fn4 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *);
  auto untyped = reinterpret_cast<void (*)()>(fn);
  switch (argc) {
  case 0:
    reinterpret_cast<Fn0>(untyped)(&gtid, &btid);
    break;
  case 1:
    reinterpret_cast<Fn1>(untyped)(&gtid, &btid, args[0]);
    break;
  case 2:
    reinterpret_cast<Fn2>(untyped)(&gtid, &btid, args[0], args[1]);
    break;
  case 3:
    reinterpret_cast<Fn3>(untyped)(&gtid, &btid, args[0], args[1], args[2]);
    break;
  default:
    reinterpret_cast<Fn4>(untyped)(&gtid, &btid, args[0], args[1], args[2],
                                   args[3]);
    break;
  }
  tlsTeamSize = savedSize;
  tlsTid = savedTid;
}

void *workerMain(void *arg) {
  int32_t index = int32_t(reinterpret_cast<intptr_t>(arg));
  int32_t tid = index + 1;
  tlsGtid = tid;
  uint64_t seen = gWorkerStart[index];
  for (;;) {
    uint64_t work = seen;
    waitUntil([&] {
      work = atomicLoad(gWork);
      return work != seen || atomicLoad(gShutdown);
    });
    if (atomicLoad(gShutdown))
      return nullptr;
    seen = work;
    // Only team members read the region and count themselves done: the
    // next region cannot start before they have.
    if (tid >= int32_t(work & 0xff))
      continue;
    runMember(gMicrotask, gArgc, gArgs, tid, int32_t(work & 0xff));
    if (__atomic_sub_fetch(&gPending, 1, __ATOMIC_SEQ_CST) == 0)
      wakeSleepers();
  }
}

/// After fork() the child has only the forking thread: forget the workers
/// (and any region in flight) so the child starts a pool of its own.
void forgetPoolAfterFork() {
  gNumWorkers = 0;
  gBusy = 0;
  gSleepers = 0;
  gPending = 0;
  gShutdown = false;
  gBarrierArrived = 0;
  pthread_mutex_init(&gMutex, nullptr);
  pthread_cond_init(&gCond, nullptr);
}

/// Starts workers until there are `wanted` (as many as pthread_create
/// allows); returns how many there are. Caller holds the pool.
int32_t ensureWorkers(int32_t wanted) {
  if (gNumWorkers >= wanted)
    return wanted;
  if (!gAtForkRegistered)
    gAtForkRegistered =
        pthread_atfork(nullptr, nullptr, forgetPoolAfterFork) == 0;
  // Workers start with every signal blocked: asynchronous signals belong to
  // the application's threads.
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  while (gNumWorkers < wanted) {
    int32_t index = gNumWorkers;
    gWorkerStart[index] = atomicLoad(gWork);
    if (pthread_create(&gWorkers[index], nullptr, workerMain,
                       reinterpret_cast<void *>(intptr_t(index))) != 0)
      break; // run with the workers we have
    atomicStore(gNumWorkers, index + 1);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  return gNumWorkers;
}

/// The team size the calling thread's next region asks for.
int32_t requestedTeamSize() {
  int32_t pushed = tlsPushed;
  tlsPushed = 0;
  return effectiveNumThreads(pushed > 0 ? pushed : tlsNumThreads);
}

__attribute__((destructor)) void stopPoolAtUnload() { stopThreadPool(); }

//===----------------------------------------------------------------------===//
// Static schedules
//===----------------------------------------------------------------------===//

/// libomp's __kmp_for_static_init for kmp_sch_static (balanced blocks) and
/// kmp_sch_static_chunked. T is the bound type, UT its unsigned twin (all
/// arithmetic wraps, as the generated code expects), ST the signed one.
template <typename T, typename UT, typename ST>
void staticInit(int32_t schedtype, int32_t *plastiter, T *plower, T *pupper,
                ST *pstride, ST incr, ST chunk) {
  if (incr == 0)
    fatal("__kmpc_for_static_init: loop increment is ", 0);
  T lower = *plower, upper = *pupper;
  if (incr > 0 ? upper < lower : lower < upper) {
    // No iterations: the bounds already say so.
    if (plastiter)
      *plastiter = 0;
    *pstride = incr;
    return;
  }
  UT step = incr > 0 ? UT(incr) : UT(0) - UT(incr);
  UT distance = incr > 0 ? UT(upper) - UT(lower) : UT(lower) - UT(upper);
  // 0 only for a range spanning the whole type with |incr| = 1, which is how
  // OpenMPIRBuilder encodes an empty loop (upper = trip count - 1 = max):
  // every thread then gets no iterations.
  UT trip = distance / step + 1;
  UT nth = UT(tlsTeamSize > 0 ? tlsTeamSize : 1);
  UT tid = UT(tlsTid);

  if (schedtype == kSchedStaticChunked) {
    // Round-robin chunks; [lower, upper] is this thread's first chunk
    // (unclamped, as in libomp), the stride leads to its next one.
    UT c = chunk < 1 ? 1 : UT(chunk);
    UT span = c * UT(incr);
    *plower = T(UT(lower) + tid * span);
    *pupper = T(UT(lower) + tid * span + span - UT(incr));
    *pstride = ST(span * nth);
    if (plastiter)
      *plastiter = trip != 0 && tid == ((trip - 1) / c) % nth;
    return;
  }

  // Balanced blocks: the first trip % nth threads get one more iteration. A
  // thread without iterations gets lower = upper + incr (past the range).
  UT small = trip / nth, extras = trip % nth;
  UT count = small + (tid < extras ? 1 : 0);
  UT first = tid * small + (tid < extras ? tid : extras);
  if (count == 0) {
    *plower = T(UT(upper) + UT(incr));
  } else {
    *plower = T(UT(lower) + first * UT(incr));
    *pupper = T(UT(lower) + (first + count - 1) * UT(incr));
  }
  if (plastiter)
    *plastiter = count != 0 && first + count == trip;
  *pstride = ST(trip);
}

} // namespace

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

int32_t mlc::rt::defaultNumThreads() {
  int32_t n = __atomic_load_n(&gOnlineCpus, __ATOMIC_RELAXED);
  if (n == 0) {
    // The CPUs this thread may run on (taskset, cpusets), else the online
    // ones. Cached: both are system calls. Racing threads store the same.
    long cpus = 0;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
      cpus = CPU_COUNT(&allowed);
    if (cpus < 1)
      cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = cpus < 1 ? 1 : cpus > kMaxThreads ? kMaxThreads : int32_t(cpus);
    __atomic_store_n(&gOnlineCpus, n, __ATOMIC_RELAXED);
  }
  return n;
}

int32_t mlc::rt::effectiveNumThreads(int32_t setting) {
  if (setting <= 0)
    return defaultNumThreads();
  return setting > kMaxThreads ? kMaxThreads : setting;
}

__attribute__((weak)) void mlc_abi_set_num_threads(int32_t n) {
  tlsNumThreads = n > 0 ? n : 0;
}

void mlc::rt::stopThreadPool() {
  // A team member cannot wait for its own team (exit() from a region).
  if (atomicLoad(gNumWorkers) == 0 || tlsTeamSize > 0 || tlsGtid != 0)
    return;
  // Let a region in flight on another thread (exit() racing a run) finish.
  while (!tryAcquirePool())
    sched_yield();
  atomicStore(gShutdown, true);
  wakeSleepers();
  for (int32_t i = 0; i < gNumWorkers; ++i)
    pthread_join(gWorkers[i], nullptr);
  atomicStore(gNumWorkers, 0);
  atomicStore(gShutdown, false);
  releasePool();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

int32_t __kmpc_global_thread_num(void *) { return tlsGtid; }

void __kmpc_push_num_threads(void *, int32_t, int32_t numThreads) {
  tlsPushed = numThreads;
}

void __kmpc_fork_call(void *, int32_t argc, mlc_kmpc_micro microtask, ...) {
  if (argc < 0 || argc > kMaxForkArgs)
    fatal("__kmpc_fork_call: unsupported number of microtask arguments "
          "(at most 4): ",
          argc);
  void *args[kMaxForkArgs] = {};
  va_list ap;
  va_start(ap, microtask);
  for (int32_t i = 0; i < argc; ++i)
    args[i] = va_arg(ap, void *);
  va_end(ap);

  int32_t size = requestedTeamSize();
  // Nested, single-threaded, or another team is running: run serially.
  if (size <= 1 || tlsTeamSize > 0 || !tryAcquirePool()) {
    runMember(microtask, argc, args, 0, 1);
    return;
  }
  size = ensureWorkers(size - 1) + 1;
  if (size == 1) {
    releasePool();
    runMember(microtask, argc, args, 0, 1);
    return;
  }

  gMicrotask = microtask;
  gArgc = argc;
  for (int32_t i = 0; i < kMaxForkArgs; ++i)
    gArgs[i] = args[i];
  atomicStore(gPending, size - 1);
  uint64_t sequence = (atomicLoad(gWork) >> 8) + 1;
  atomicStore(gWork, (sequence << 8) | uint64_t(size));
  wakeSleepers();

  runMember(microtask, argc, args, 0, size);
  waitUntil([] { return atomicLoad(gPending) == 0; });
  releasePool();
}

void __kmpc_for_static_init_4(void *, int32_t, int32_t schedtype,
                              int32_t *plastiter, int32_t *plower,
                              int32_t *pupper, int32_t *pstride, int32_t incr,
                              int32_t chunk) {
  staticInit<int32_t, uint32_t, int32_t>(schedtype, plastiter, plower, pupper,
                                         pstride, incr, chunk);
}

void __kmpc_for_static_init_4u(void *, int32_t, int32_t schedtype,
                               int32_t *plastiter, uint32_t *plower,
                               uint32_t *pupper, int32_t *pstride, int32_t incr,
                               int32_t chunk) {
  staticInit<uint32_t, uint32_t, int32_t>(schedtype, plastiter, plower, pupper,
                                          pstride, incr, chunk);
}

void __kmpc_for_static_init_8(void *, int32_t, int32_t schedtype,
                              int32_t *plastiter, int64_t *plower,
                              int64_t *pupper, int64_t *pstride, int64_t incr,
                              int64_t chunk) {
  staticInit<int64_t, uint64_t, int64_t>(schedtype, plastiter, plower, pupper,
                                         pstride, incr, chunk);
}

void __kmpc_for_static_init_8u(void *, int32_t, int32_t schedtype,
                               int32_t *plastiter, uint64_t *plower,
                               uint64_t *pupper, int64_t *pstride, int64_t incr,
                               int64_t chunk) {
  staticInit<uint64_t, uint64_t, int64_t>(schedtype, plastiter, plower, pupper,
                                          pstride, incr, chunk);
}

void __kmpc_for_static_fini(void *, int32_t) {}

void __kmpc_barrier(void *, int32_t) {
  int32_t size = tlsTeamSize;
  if (size <= 1)
    return;
  uint32_t phase = atomicLoad(gBarrierPhase);
  if (__atomic_add_fetch(&gBarrierArrived, 1, __ATOMIC_SEQ_CST) == size) {
    // Last to arrive: reset for the next barrier, then release the others.
    atomicStore(gBarrierArrived, 0);
    __atomic_add_fetch(&gBarrierPhase, 1, __ATOMIC_SEQ_CST);
    wakeSleepers();
    return;
  }
  waitUntil([&] { return atomicLoad(gBarrierPhase) != phase; });
}
