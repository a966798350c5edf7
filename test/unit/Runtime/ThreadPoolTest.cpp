//===- ThreadPoolTest.cpp - tests of the runtime's thread pool ------------===//
//
// Drives the libomp entry points of ThreadPool.cpp directly, as compiled
// kernels call them (this binary links the runtime): teams, both static
// schedules on every bound type, barriers, nesting, concurrent callers and
// the fatal cases. Then checks that a model's thread setting reaches the
// model.so's own runtime copy (fake_model.c, fake_train_model.c).
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"
#include "TestUtil.h"
#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <dirent.h>
#include <dlfcn.h>
#include <limits>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace runtimetest;
using mlc::rt::defaultNumThreads;
using mlc::rt::kMaxThreads;

namespace {

using Body = void (*)(int32_t *gtid, int32_t *btid, void *arg);

mlc_kmpc_micro micro(Body body) {
  return reinterpret_cast<mlc_kmpc_micro>(reinterpret_cast<void (*)()>(body));
}

/// Runs body on a team of `threads` (pushed), or of the calling thread's
/// setting when threads is 0.
void parallel(int32_t threads, Body body, void *arg) {
  if (threads > 0)
    __kmpc_push_num_threads(nullptr, __kmpc_global_thread_num(nullptr),
                            threads);
  __kmpc_fork_call(nullptr, 1, micro(body), arg);
}

//===----------------------------------------------------------------------===//
// Teams
//===----------------------------------------------------------------------===//

struct Member {
  int32_t gtid;      // *gtid as passed
  int32_t btid;      // *btid as passed
  int32_t threadNum; // __kmpc_global_thread_num()
  pthread_t self;
};

struct TeamLog {
  std::mutex mutex;
  std::vector<Member> members;
};

void recordMember(int32_t *gtid, int32_t *btid, void *arg) {
  auto *log = static_cast<TeamLog *>(arg);
  Member m{*gtid, *btid, __kmpc_global_thread_num(nullptr), pthread_self()};
  std::lock_guard<std::mutex> lock(log->mutex);
  log->members.push_back(m);
}

/// The members of one region, sorted by btid.
std::vector<Member> runTeam(int32_t threads) {
  TeamLog log;
  parallel(threads, recordMember, &log);
  std::sort(log.members.begin(), log.members.end(),
            [](const Member &a, const Member &b) { return a.btid < b.btid; });
  return log.members;
}

int32_t teamSize(int32_t threads) { return int32_t(runTeam(threads).size()); }

/// Threads of this process; a joined thread may linger briefly in /proc, so
/// waits up to a second for `expected` when given.
int threadCount(int expected = -1) {
  for (int attempt = 0;; ++attempt) {
    int n = 0;
    if (DIR *dir = opendir("/proc/self/task")) {
      while (dirent *e = readdir(dir))
        n += e->d_name[0] != '.';
      closedir(dir);
    }
    if (expected < 0 || n == expected || attempt == 100)
      return n;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

//===----------------------------------------------------------------------===//
// Loops: one static_init call per member, then its iterations as a caller of
// libomp executes them, counted per iteration index.
//===----------------------------------------------------------------------===//

template <typename T, typename ST>
using StaticInit = void (*)(void *, int32_t, int32_t, int32_t *, T *, T *, ST *,
                            ST, ST);

struct Block {
  bool called = false;
  int32_t last = -1;
  __int128 lower = 0, upper = 0, stride = 0;
};

template <typename T, typename ST> struct Loop {
  StaticInit<T, ST> init;
  int32_t schedule;
  T lower, upper;
  ST incr, chunk;
  int64_t trip; // iterations the range has
  bool execute = true;

  std::unique_ptr<std::atomic<int32_t>[]> counts, owners;
  std::atomic<int32_t> members{0}, stray{0};
  Block blocks[kMaxThreads];

  Loop(StaticInit<T, ST> init, int32_t schedule, T lower, T upper, ST incr,
       ST chunk, int64_t trip)
      : init(init), schedule(schedule), lower(lower), upper(upper), incr(incr),
        chunk(chunk), trip(trip),
        counts(new std::atomic<int32_t>[size_t(trip) + 1]()),
        owners(new std::atomic<int32_t>[size_t(trip) + 1]()) {}

  bool inRange(__int128 i) const { return incr > 0 ? i <= upper : i >= upper; }

  /// Runs the iterations of [lo, hi] (clipped to the range) as thread btid.
  void runChunk(__int128 lo, __int128 hi, int32_t btid) {
    if (incr > 0 ? hi > upper : hi < upper)
      hi = upper;
    for (__int128 i = lo; incr > 0 ? i <= hi : i >= hi; i += incr) {
      __int128 offset = i - __int128(lower);
      __int128 index = offset / incr;
      if (offset % incr != 0 || index < 0 || index >= trip) {
        ++stray;
        continue;
      }
      ++counts[size_t(index)];
      owners[size_t(index)] = btid;
    }
  }
};

template <typename T, typename ST>
void loopBody(int32_t *, int32_t *btidAddr, void *arg) {
  auto &loop = *static_cast<Loop<T, ST> *>(arg);
  int32_t btid = *btidAddr;
  ++loop.members;
  int32_t last = -1;
  T lo = loop.lower, hi = loop.upper;
  ST stride = 0;
  loop.init(nullptr, __kmpc_global_thread_num(nullptr), loop.schedule, &last,
            &lo, &hi, &stride, loop.incr, loop.chunk);
  if (btid >= 0 && btid < kMaxThreads)
    loop.blocks[btid] = {true, last, lo, hi, stride};
  if (!loop.execute)
    return;
  if (loop.schedule == mlc::rt::kSchedStaticChunked) {
    // Chunk after chunk, `stride` apart, while they start in the range.
    for (__int128 l = lo, h = hi; loop.inRange(l); l += stride, h += stride)
      loop.runChunk(l, h, btid);
  } else {
    loop.runChunk(lo, hi, btid);
  }
}

/// What is wrong with a finished loop run by a team of `team` ("" if
/// nothing): every iteration exactly once, in the right blocks or chunks,
/// and lastiter set exactly by the owner of the last iteration.
template <typename T, typename ST>
std::string loopProblems(const Loop<T, ST> &loop, int32_t team) {
  std::ostringstream out;
  if (loop.members != team)
    out << "team of " << loop.members << ", expected " << team << "; ";
  if (loop.stray)
    out << loop.stray << " iterations outside the range; ";
  for (int64_t i = 0; i < loop.trip; ++i)
    if (loop.counts[i] != 1) {
      out << "iteration " << i << " ran " << loop.counts[i] << " times; ";
      break;
    }
  int32_t lasts = 0;
  for (int32_t t = 0; t < team; ++t) {
    const Block &b = loop.blocks[t];
    if (!b.called) {
      out << "thread " << t << " did not call static_init; ";
      continue;
    }
    if (b.last != 0 && b.last != 1)
      out << "thread " << t << ": lastiter " << b.last << "; ";
    lasts += b.last == 1;
    if (b.last == 1 && loop.trip > 0 && loop.owners[loop.trip - 1] != t)
      out << "thread " << t << " has lastiter but not the last iteration; ";
  }
  if (lasts != (loop.trip > 0 ? 1 : 0))
    out << lasts << " threads have lastiter; ";
  if (loop.trip == 0)
    return out.str();

  if (loop.schedule == mlc::rt::kSchedStaticChunked) {
    // Round-robin chunks of `chunk` iterations.
    for (int64_t i = 0; i < loop.trip; ++i)
      if (loop.owners[i] != int32_t((i / loop.chunk) % team)) {
        out << "iteration " << i << " ran on thread " << loop.owners[i] << "; ";
        break;
      }
    for (int32_t t = 0; t < team; ++t)
      if (loop.blocks[t].stride != __int128(loop.chunk) * loop.incr * team)
        out << "thread " << t << ": stride is not chunk * incr * team; ";
    return out.str();
  }

  // Contiguous blocks in thread order, sizes differing by at most one; a
  // thread without iterations gets an empty block (lower past upper).
  for (int64_t i = 1; i < loop.trip; ++i)
    if (loop.owners[i] < loop.owners[i - 1]) {
      out << "blocks not contiguous at iteration " << i << "; ";
      break;
    }
  int64_t minCount = loop.trip, maxCount = 0;
  for (int32_t t = 0; t < team; ++t) {
    int64_t n = 0;
    for (int64_t i = 0; i < loop.trip; ++i)
      n += loop.owners[i] == t;
    minCount = std::min(minCount, n);
    maxCount = std::max(maxCount, n);
    const Block &b = loop.blocks[t];
    bool empty = loop.incr > 0 ? b.lower > b.upper : b.lower < b.upper;
    if ((n == 0) != empty)
      out << "thread " << t << ": block [" << int64_t(b.lower) << ", "
          << int64_t(b.upper) << "] for " << n << " iterations; ";
    if (b.stride != loop.trip)
      out << "thread " << t << ": stride " << int64_t(b.stride)
          << ", expected the trip count; ";
  }
  if (maxCount - minCount > 1)
    out << "block sizes from " << minCount << " to " << maxCount << "; ";
  return out.str();
}

/// Runs every (team, trip count, increment) combination of one bound type
/// through `schedule`. For an unsigned type, base must be > 0 (else the
/// empty range would be OpenMPIRBuilder's [0, max], tested separately).
template <typename T, typename ST>
void checkSchedule(StaticInit<T, ST> init, int32_t schedule, T base,
                   ST chunk = 0) {
  std::vector<ST> incrs = {1, 3};
  if (std::numeric_limits<T>::is_signed)
    incrs.insert(incrs.end(), {-1, -3});
  for (int32_t team : {1, 2, 3, 4, 7})
    for (int64_t trip : {0, 1, 5, 1000})
      for (ST incr : incrs)
        for (bool ragged : {false, true}) {
          // Empty: upper one before lower; else the last iteration, or
          // (ragged) up to |incr| - 1 past it.
          __int128 upper = trip == 0 ? __int128(base) - (incr > 0 ? 1 : -1)
                                     : __int128(base) + (trip - 1) * incr;
          if (ragged && trip > 0)
            upper += incr > 0 ? incr - 1 : incr + 1;
          Loop<T, ST> loop(init, schedule, base, T(upper), incr, chunk, trip);
          parallel(team, loopBody<T, ST>, &loop);
          INFO("team " << team << ", " << trip << " iterations from "
                       << int64_t(base) << " by " << int64_t(incr)
                       << (ragged ? " (ragged end)" : "") << ", chunk "
                       << int64_t(chunk));
          CHECK(loopProblems(loop, team) == "");
        }
}

//===----------------------------------------------------------------------===//
// Barriers and nesting
//===----------------------------------------------------------------------===//

struct BarrierTest {
  int32_t team;
  int32_t values[2][kMaxThreads] = {};
  std::atomic<int32_t> members{0}, wrong{0};
};

void barrierBody(int32_t *gtid, int32_t *btid, void *arg) {
  auto &t = *static_cast<BarrierTest *>(arg);
  ++t.members;
  // Double-buffered: a thread can only overwrite a round's values two
  // barriers later, after every thread has read them.
  for (int32_t round = 0; round < 200; ++round) {
    int32_t *values = t.values[round % 2];
    values[*btid] = round * 100 + *btid;
    __kmpc_barrier(nullptr, *gtid);
    for (int32_t k = 0; k < t.team; ++k)
      t.wrong += values[k] != round * 100 + k;
  }
}

struct NestedTest {
  std::atomic<int32_t> members{0}, wrong{0};
  std::atomic<int32_t> counts[30] = {};
};

struct InnerRegion {
  NestedTest *test;
  pthread_t outerThread;
  int32_t calls = 0;
};

void innerBody(int32_t *gtid, int32_t *btid, void *arg) {
  auto &inner = *static_cast<InnerRegion *>(arg);
  ++inner.calls;
  inner.test->wrong += *btid != 0;
  inner.test->wrong += !pthread_equal(pthread_self(), inner.outerThread);
  // A team of one: the whole range, last iteration included.
  int64_t lower = 0, upper = 9, stride = 0;
  int32_t last = 0;
  __kmpc_for_static_init_8(nullptr, *gtid, mlc::rt::kSchedStatic, &last, &lower,
                           &upper, &stride, 1, 0);
  inner.test->wrong += lower != 0 || upper != 9 || last != 1;
  __kmpc_barrier(nullptr, *gtid); // a no-op: must not wait for the outer team
}

void outerBody(int32_t *gtid, int32_t *, void *arg) {
  auto &test = *static_cast<NestedTest *>(arg);
  ++test.members;
  InnerRegion inner{&test, pthread_self()};
  // Ignored (nested regions run serially), and consumed.
  __kmpc_push_num_threads(nullptr, *gtid, 4);
  __kmpc_fork_call(nullptr, 1, micro(innerBody), &inner);
  test.wrong += inner.calls != 1;
  // The outer team is intact afterwards.
  int64_t lower = 0, upper = 29, stride = 0;
  int32_t last = 0;
  __kmpc_for_static_init_8(nullptr, *gtid, mlc::rt::kSchedStatic, &last, &lower,
                           &upper, &stride, 1, 0);
  for (int64_t i = lower; i <= upper; ++i)
    ++test.counts[i];
  __kmpc_barrier(nullptr, *gtid);
}

//===----------------------------------------------------------------------===//
// Child processes, for the fatal errors and fork()
//===----------------------------------------------------------------------===//

struct ChildResult {
  int status;
  std::string stderrText;
};

/// Runs fn in a forked child (exit status: fn's result) and collects its
/// stderr.
ChildResult inChild(int (*fn)()) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  fflush(nullptr);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    signal(SIGABRT, SIG_DFL); // not Catch2's handler, which reports a failure
    dup2(fds[1], 2);
    close(fds[0]);
    _exit(fn());
  }
  close(fds[1]);
  ChildResult result{0, ""};
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof(buf))) > 0)
    result.stderrText.append(buf, size_t(n));
  close(fds[0]);
  REQUIRE(waitpid(pid, &result.status, 0) == pid);
  return result;
}

void noop(int32_t *, int32_t *, void *) {}

bool abortedWith(const ChildResult &r, const std::string &message) {
  INFO("child stderr: " << r.stderrText);
  return WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT &&
         contains(r.stderrText, message);
}

} // namespace

//===----------------------------------------------------------------------===//
// The pool
//===----------------------------------------------------------------------===//

TEST_CASE("fork_call runs a team with the caller as thread 0", "[threadpool]") {
  CHECK(__kmpc_global_thread_num(nullptr) == 0);
  for (int32_t team : {1, 2, 3, 4, 7}) {
    INFO("team of " << team);
    std::vector<Member> members = runTeam(team);
    REQUIRE(members.size() == size_t(team));
    CHECK(pthread_equal(members[0].self, pthread_self()));
    CHECK(members[0].gtid == 0);
    for (int32_t i = 0; i < team; ++i) {
      CHECK(members[i].btid == i);
      CHECK(members[i].gtid == members[i].threadNum);
      for (int32_t j = 0; j < i; ++j) {
        CHECK(members[i].gtid != members[j].gtid);
        CHECK(!pthread_equal(members[i].self, members[j].self));
      }
    }
  }
}

TEST_CASE("fork_call passes 0 to 4 arguments", "[threadpool]") {
  static std::atomic<int32_t> calls, wrong;
  static char a, b, c, d;
  calls = 0;
  wrong = 0;
  using Fn0 = void (*)(int32_t *, int32_t *);
  using Fn4 = void (*)(int32_t *, int32_t *, void *, void *, void *, void *);
  Fn0 f0 = [](int32_t *, int32_t *) { ++calls; };
  Body f1 = [](int32_t *, int32_t *, void *p) {
    ++calls;
    wrong += p != &a;
  };
  void (*f2)(int32_t *, int32_t *, void *, void *) = [](int32_t *, int32_t *,
                                                        void *p, void *q) {
    ++calls;
    wrong += p != &a || q != &b;
  };
  void (*f3)(int32_t *, int32_t *, void *, void *,
             void *) = [](int32_t *, int32_t *, void *p, void *q, void *r) {
    ++calls;
    wrong += p != &a || q != &b || r != &c;
  };
  Fn4 f4 = [](int32_t *, int32_t *, void *p, void *q, void *r, void *s) {
    ++calls;
    wrong += p != &a || q != &b || r != &c || s != &d;
  };
  auto fork = [](int32_t argc, void (*fn)(), auto... args) {
    __kmpc_push_num_threads(nullptr, 0, 3);
    __kmpc_fork_call(nullptr, argc, reinterpret_cast<mlc_kmpc_micro>(fn),
                     args...);
  };
  using Any = void (*)();
  fork(0, reinterpret_cast<Any>(f0));
  fork(1, reinterpret_cast<Any>(f1), &a);
  fork(2, reinterpret_cast<Any>(f2), &a, &b);
  fork(3, reinterpret_cast<Any>(f3), &a, &b, &c);
  fork(4, reinterpret_cast<Any>(f4), &a, &b, &c, &d);
  CHECK(calls == 5 * 3);
  CHECK(wrong == 0);
}

TEST_CASE("the team size follows push_num_threads, then the setting",
          "[threadpool]") {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  CHECK(defaultNumThreads() == (cpus < 1             ? 1
                                : cpus > kMaxThreads ? kMaxThreads
                                                     : int32_t(cpus)));
  CHECK(mlc::rt::effectiveNumThreads(0) == defaultNumThreads());
  CHECK(mlc::rt::effectiveNumThreads(-3) == defaultNumThreads());
  CHECK(mlc::rt::effectiveNumThreads(5) == 5);
  CHECK(mlc::rt::effectiveNumThreads(1000) == kMaxThreads);

  mlc_abi_set_num_threads(2);
  CHECK(teamSize(0) == 2);
  __kmpc_push_num_threads(nullptr, 0, 3);
  CHECK(teamSize(0) == 3);
  CHECK(teamSize(0) == 2); // a push counts for one region only
  __kmpc_push_num_threads(nullptr, 0, 1);
  CHECK(teamSize(0) == 1);
  mlc_abi_set_num_threads(5);
  CHECK(teamSize(0) == 5);
  // The setting is per thread.
  int32_t other = 0;
  std::thread([&] { other = teamSize(0); }).join();
  CHECK(other == defaultNumThreads());
  mlc_abi_set_num_threads(0);
  CHECK(teamSize(0) == defaultNumThreads());
  mlc_abi_set_num_threads(-1);
  CHECK(teamSize(0) == defaultNumThreads());
  // At most kMaxThreads, however many are asked for.
  std::vector<Member> members = runTeam(kMaxThreads + 10);
  CHECK(members.size() == size_t(kMaxThreads));
  mlc_abi_set_num_threads(0);
}

TEST_CASE("static_init splits a range into balanced blocks", "[threadpool]") {
  using mlc::rt::kSchedStatic;
  checkSchedule<int32_t, int32_t>(__kmpc_for_static_init_4, kSchedStatic, -7);
  checkSchedule<uint32_t, int32_t>(__kmpc_for_static_init_4u, kSchedStatic, 5);
  checkSchedule<int64_t, int64_t>(__kmpc_for_static_init_8, kSchedStatic,
                                  -(int64_t(1) << 40));
  checkSchedule<uint64_t, int64_t>(__kmpc_for_static_init_8u, kSchedStatic, 5);
  // Unknown schedule kinds are treated as static.
  checkSchedule<int64_t, int64_t>(__kmpc_for_static_init_8, 35, 2);
}

TEST_CASE("static_init hands out round-robin chunks", "[threadpool]") {
  using mlc::rt::kSchedStaticChunked;
  for (int32_t chunk : {1, 4, 7}) {
    checkSchedule<int32_t, int32_t>(__kmpc_for_static_init_4,
                                    kSchedStaticChunked, -7, chunk);
    checkSchedule<uint32_t, int32_t>(__kmpc_for_static_init_4u,
                                     kSchedStaticChunked, 5, chunk);
    checkSchedule<int64_t, int64_t>(__kmpc_for_static_init_8,
                                    kSchedStaticChunked, 3, chunk);
    checkSchedule<uint64_t, int64_t>(__kmpc_for_static_init_8u,
                                     kSchedStaticChunked, 5, chunk);
  }
}

TEST_CASE("static_init: OpenMPIRBuilder's empty loop gives no iterations",
          "[threadpool]") {
  // The generated code passes [0, trip count - 1] unsigned, so an empty loop
  // arrives as [0, max] and runs upper - lower + 1 (wrapping) iterations.
  for (int32_t team : {1, 3}) {
    INFO("team of " << team);
    Loop<uint64_t, int64_t> loop64(__kmpc_for_static_init_8u,
                                   mlc::rt::kSchedStatic, 0, UINT64_MAX, 1, 0,
                                   0);
    loop64.execute = false;
    parallel(team, loopBody<uint64_t, int64_t>, &loop64);
    Loop<uint32_t, int32_t> loop32(__kmpc_for_static_init_4u,
                                   mlc::rt::kSchedStatic, 0, UINT32_MAX, 1, 0,
                                   0);
    loop32.execute = false;
    parallel(team, loopBody<uint32_t, int32_t>, &loop32);
    for (int32_t t = 0; t < team; ++t) {
      const Block &b64 = loop64.blocks[t], &b32 = loop32.blocks[t];
      CHECK(uint64_t(uint64_t(b64.upper) - uint64_t(b64.lower) + 1) == 0);
      CHECK(b64.last == 0);
      CHECK(uint32_t(uint32_t(b32.upper) - uint32_t(b32.lower) + 1) == 0);
      CHECK(b32.last == 0);
    }
  }
}

TEST_CASE("static_init outside a parallel region covers the whole range",
          "[threadpool]") {
  int64_t lower = 3, upper = 12, stride = 0;
  int32_t last = 0;
  __kmpc_for_static_init_8(nullptr, 0, mlc::rt::kSchedStatic, &last, &lower,
                           &upper, &stride, 1, 0);
  CHECK(lower == 3);
  CHECK(upper == 12);
  CHECK(stride == 10);
  CHECK(last == 1);
  __kmpc_for_static_fini(nullptr, 0);
  __kmpc_barrier(nullptr, 0); // no team: returns at once
}

TEST_CASE("barrier: every thread sees the others' writes", "[threadpool]") {
  for (int32_t team : {2, 3, 4, 7}) {
    INFO("team of " << team);
    BarrierTest test;
    test.team = team;
    parallel(team, barrierBody, &test);
    CHECK(test.members == team);
    CHECK(test.wrong == 0);
  }
}

TEST_CASE("a nested fork_call runs serially on the calling thread",
          "[threadpool]") {
  mlc_abi_set_num_threads(2);
  NestedTest test;
  parallel(3, outerBody, &test);
  CHECK(test.members == 3);
  CHECK(test.wrong == 0);
  for (int i = 0; i < 30; ++i)
    CHECK(test.counts[i] == 1);
  // The pushes inside were consumed there.
  CHECK(teamSize(0) == 2);
  mlc_abi_set_num_threads(0);
}

TEST_CASE("a fork_call that finds the pool busy runs serially",
          "[threadpool]") {
  static std::atomic<bool> inRegion, release;
  inRegion = false;
  release = false;
  // Holds the pool: thread 0 of its team waits until released.
  std::thread holder([] {
    parallel(
        2,
        [](int32_t *, int32_t *btid, void *) {
          if (*btid != 0)
            return;
          inRegion = true;
          while (!release)
            std::this_thread::yield();
        },
        nullptr);
  });
  while (!inRegion)
    std::this_thread::yield();
  std::vector<Member> members = runTeam(3);
  release = true;
  holder.join();
  REQUIRE(members.size() == 1);
  CHECK(pthread_equal(members[0].self, pthread_self()));
  CHECK(members[0].btid == 0);
  // Free again.
  CHECK(teamSize(3) == 3);
}

TEST_CASE("concurrent fork_calls from application threads all complete",
          "[threadpool]") {
  std::atomic<int32_t> failures{0}, parallelRuns{0};
  auto caller = [&](int32_t seed) {
    mlc_abi_set_num_threads(3);
    for (int32_t r = 0; r < 300; ++r) {
      int64_t trip = 100 + (r * 7 + seed) % 200;
      Loop<int64_t, int64_t> loop(__kmpc_for_static_init_8,
                                  mlc::rt::kSchedStatic, seed, seed + trip - 1,
                                  1, 0, trip);
      parallel(0, loopBody<int64_t, int64_t>, &loop);
      // Whoever finds the pool busy runs alone.
      int32_t team = loop.members;
      parallelRuns += team == 3;
      if ((team != 1 && team != 3) || loopProblems(loop, team) != "")
        ++failures;
    }
  };
  std::thread a(caller, 0), b(caller, 1), c(caller, 2);
  a.join();
  b.join();
  c.join();
  CHECK(failures == 0);
  CHECK(parallelRuns > 0);
}

TEST_CASE("stopping the pool joins its workers; it restarts on demand",
          "[threadpool]") {
  CHECK(teamSize(4) == 4);
  mlc::rt::stopThreadPool();
  int base = threadCount();
  CHECK(teamSize(4) == 4);
  CHECK(threadCount(base + 3) == base + 3);
  CHECK(teamSize(3) == 3); // reuses them
  CHECK(threadCount() == base + 3);
  mlc::rt::stopThreadPool();
  CHECK(threadCount(base) == base);
  mlc::rt::stopThreadPool(); // nothing to stop
  CHECK(teamSize(2) == 2);
}

TEST_CASE("the pool works in a forked child", "[threadpool]") {
  CHECK(teamSize(3) == 3); // the parent has workers; the child has none
  ChildResult r = inChild([] {
    BarrierTest test;
    test.team = 3;
    parallel(3, barrierBody, &test);
    return test.members == 3 && test.wrong == 0 ? 0 : 1;
  });
  INFO("child stderr: " << r.stderrText);
  CHECK(WIFEXITED(r.status));
  CHECK(WEXITSTATUS(r.status) == 0);
  CHECK(teamSize(3) == 3);
}

TEST_CASE("unsupported calls abort with a message", "[threadpool]") {
  CHECK(abortedWith(inChild([] {
                      static char x;
                      __kmpc_fork_call(nullptr, 5, micro(noop), &x, &x, &x, &x,
                                       &x);
                      return 0;
                    }),
                    "mlc runtime: fatal error: __kmpc_fork_call: unsupported "
                    "number of microtask arguments (at most 4): 5"));
  CHECK(abortedWith(inChild([] {
                      __kmpc_fork_call(nullptr, -1, micro(noop));
                      return 0;
                    }),
                    "(at most 4): -1"));
  CHECK(abortedWith(inChild([] {
                      int64_t lower = 0, upper = 9, stride;
                      int32_t last;
                      __kmpc_for_static_init_8(nullptr, 0,
                                               mlc::rt::kSchedStatic, &last,
                                               &lower, &upper, &stride, 0, 0);
                      return 0;
                    }),
                    "loop increment is 0"));
}

//===----------------------------------------------------------------------===//
// The model's setting
//===----------------------------------------------------------------------===//

namespace {
/// fake_seen_num_threads() of a loaded fake model: the setting the runtime
/// passed right before its last entry call (-1: none).
struct SeenThreads {
  void *handle;
  int32_t (*seen)();
  explicit SeenThreads(const std::string &path)
      : handle(dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    REQUIRE(handle);
    seen =
        reinterpret_cast<int32_t (*)()>(dlsym(handle, "fake_seen_num_threads"));
    REQUIRE(seen);
  }
  ~SeenThreads() { dlclose(handle); }
  int32_t operator()() const { return seen(); }
};
} // namespace

TEST_CASE("mlc_model_set_num_threads checks its arguments", "[threads]") {
  CHECK_ERROR(mlc_model_set_num_threads(nullptr, 2), MLC_ERR_INVALID_ARGUMENT,
              "model is NULL");
  CHECK(mlc_model_num_threads(nullptr) == -1);
  CHECK(std::string(mlc_last_error()) == "model is NULL");

  Model model(fakeModel("fake_model"));
  CHECK(mlc_model_num_threads(model.m) == defaultNumThreads());
  CHECK_ERROR(mlc_model_set_num_threads(model.m, -1), MLC_ERR_INVALID_ARGUMENT,
              "invalid number of threads -1 (expected >= 1, or 0 for one "
              "per CPU the process may run on)");
  CHECK(mlc_model_num_threads(model.m) == defaultNumThreads());
  CHECK(mlc_model_set_num_threads(model.m, 3) == MLC_OK);
  CHECK(mlc_model_num_threads(model.m) == 3);
  CHECK(mlc_model_set_num_threads(model.m, 1) == MLC_OK);
  CHECK(mlc_model_num_threads(model.m) == 1);
  CHECK(mlc_model_set_num_threads(model.m, 1000) == MLC_OK);
  CHECK(mlc_model_num_threads(model.m) == kMaxThreads);
  CHECK(mlc_model_set_num_threads(model.m, 0) == MLC_OK);
  CHECK(mlc_model_num_threads(model.m) == defaultNumThreads());
}

TEST_CASE("the runtime passes the setting right before each run", "[threads]") {
  Model model(fakeModel("fake_model"));
  SeenThreads seen(fakeModel("fake_model"));
  FakeRun run;
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(seen() == 0); // the default
  REQUIRE(mlc_model_set_num_threads(model.m, 3) == MLC_OK);
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(seen() == 3);
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(seen() == 3); // every run, not only the first after a change
  REQUIRE(mlc_model_set_num_threads(model.m, 0) == MLC_OK);
  REQUIRE(run.run(model.m) == MLC_OK);
  CHECK(seen() == 0);
  // On the calling thread: a new thread's runs get it too.
  REQUIRE(mlc_model_set_num_threads(model.m, 5) == MLC_OK);
  mlc_status status = MLC_ERR_INTERNAL;
  std::thread([&] {
    FakeRun other;
    status = other.run(model.m);
  }).join();
  CHECK(status == MLC_OK);
  CHECK(seen() == 5);
  CHECK(run.outputsCorrect());
}

TEST_CASE("train steps, resets and init get the setting too", "[threads]") {
  Model model(fakeModel("fake_train_regression"));
  SeenThreads seen(fakeModel("fake_train_regression"));
  CHECK(seen() == 0); // init, from mlc_model_open

  float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, y[4] = {1, 2, 3, 4};
  const int64_t xShape[] = {4, 3}, yShape[] = {4, 1};
  mlc_tensor batch[2] = {{x, MLC_F32, 2, xShape}, {y, MLC_F32, 2, yShape}};
  REQUIRE(mlc_model_set_num_threads(model.m, 4) == MLC_OK);
  REQUIRE(mlc_model_train_step(model.m, batch, 2, nullptr) == MLC_OK);
  CHECK(seen() == 4);
  REQUIRE(mlc_model_set_num_threads(model.m, 2) == MLC_OK);
  REQUIRE(mlc_model_reset_variables(model.m) == MLC_OK);
  CHECK(seen() == 2);
  REQUIRE(mlc_model_set_num_threads(model.m, 6) == MLC_OK);
  float in[6] = {}, out[2];
  const int64_t inShape[] = {2, 3}, outShape[] = {2, 1};
  mlc_tensor input = {in, MLC_F32, 2, inShape};
  mlc_tensor output = {out, MLC_F32, 2, outShape};
  REQUIRE(mlc_model_run(model.m, &input, 1, &output, 1) == MLC_OK);
  CHECK(seen() == 6);
}

TEST_CASE("a model built before the setting existed still loads and runs",
          "[threads]") {
  std::string path = fakeModel("fake_model_old_abi");
  Model model(path);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(handle);
  CHECK(dlsym(handle, MLC_SYM_SET_NUM_THREADS) == nullptr);
  dlclose(handle);
  // Accepted, but such a model has no parallel loops.
  CHECK(mlc_model_set_num_threads(model.m, 3) == MLC_OK);
  CHECK(mlc_model_num_threads(model.m) == 1);
  FakeRun run;
  CHECK(run.run(model.m) == MLC_OK);
  CHECK(run.outputsCorrect());
}

TEST_CASE("a model's parallel loops run on its own pool with its setting",
          "[threads]") {
  int base = threadCount();
  {
    Model model(fakeModel("fake_model_parallel"));
    std::vector<float> x(1000);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(i) - 500.5f;
    const int64_t shape[] = {1000};
    auto run = [&](std::vector<float> &y, int32_t &team) {
      std::fill(y.begin(), y.end(), 0.0f);
      team = -1;
      mlc_tensor input = {x.data(), MLC_F32, 1, shape};
      mlc_tensor outputs[2] = {{y.data(), MLC_F32, 1, shape},
                               {&team, MLC_I32, 0, nullptr}};
      if (mlc_model_run(model.m, &input, 1, outputs, 2) != MLC_OK)
        return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (y[i] != 2 * x[i])
          return false;
      return true;
    };
    std::vector<float> y(1000);
    int32_t team = 0;
    for (int32_t n : {3, 1, 7, 0}) {
      INFO("setting " << n);
      REQUIRE(mlc_model_set_num_threads(model.m, n) == MLC_OK);
      CHECK(run(y, team));
      CHECK(team == (n ? n : defaultNumThreads()));
    }
    // The model's runtime copy started its own workers (up to 6 so far).
    CHECK(threadCount(base + std::max(6, defaultNumThreads() - 1)) ==
          base + std::max(6, defaultNumThreads() - 1));

    // Concurrent runs: one team at a time, the others alone; all correct.
    REQUIRE(mlc_model_set_num_threads(model.m, 2) == MLC_OK);
    std::atomic<int32_t> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        std::vector<float> mine(1000);
        int32_t size = 0;
        for (int r = 0; r < 50; ++r)
          if (!run(mine, size) || (size != 1 && size != 2))
            ++failures;
      });
    for (std::thread &t : threads)
      t.join();
    CHECK(failures == 0);
  }
  // Unloading the model.so joined its workers.
  CHECK(threadCount(base) == base);
}
