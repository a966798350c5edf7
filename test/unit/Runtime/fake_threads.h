/*===- fake_threads.h - records the thread setting the runtime passes ----===*
 *
 * Included by the fake models: replaces the runtime's (weak)
 * mlc_abi_set_num_threads with one that remembers the value for the calling
 * thread; every entry calls fakeEnter(), which publishes that value as
 * fake_seen_num_threads() and forgets it (-1), so a call into the model
 * without a set call right before it on the same thread shows up as -1.
 *===----------------------------------------------------------------------===*/
#ifndef FAKE_THREADS_H
#define FAKE_THREADS_H

#include <stdint.h>

static _Thread_local int32_t fakePendingThreads = -1;
static int32_t fakeSeenThreads = -2; /* -2: no entry called yet */

void mlc_abi_set_num_threads(int32_t n) { fakePendingThreads = n; }

int32_t fake_seen_num_threads(void) {
  return __atomic_load_n(&fakeSeenThreads, __ATOMIC_SEQ_CST);
}

__attribute__((unused)) static void fakeEnter(void) {
  __atomic_store_n(&fakeSeenThreads, fakePendingThreads, __ATOMIC_SEQ_CST);
  fakePendingThreads = -1;
}

#endif /* FAKE_THREADS_H */
