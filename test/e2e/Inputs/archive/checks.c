/* The entry points of a model archive beyond a plain run (archive.test):
 * argument errors, the thread-count setting, concurrent calls of
 * lenet_run (they wait for each other) and of lenet_run_with_workspace
 * (each on its own workspace). Every result must equal a first plain run,
 * bit for bit. Prints "ok: <what>" per check, "FAIL: <what>" otherwise. */
#include "lenet.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float x[LENET_X_ELEMENTS], want[LENET_PROBS_ELEMENTS];
static int failures;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

static void *runPlain(void *arg) {
  float *y = arg;
  for (int i = 0; i < 20; ++i)
    if (lenet_run(x, y) != 0 || memcmp(y, want, sizeof(want)) != 0)
      return y;
  return NULL;
}

static void *runOwnWorkspace(void *arg) {
  float *y = arg;
  void *ws = aligned_alloc(LENET_WORKSPACE_ALIGN,
                           (LENET_WORKSPACE_BYTES + 63) / 64 * 64);
  void *bad = NULL;
  for (int i = 0; i < 20 && !bad; ++i)
    if (lenet_run_with_workspace(x, y, ws) != 0 ||
        memcmp(y, want, sizeof(want)) != 0)
      bad = y;
  free(ws);
  return bad;
}

static int concurrently(void *(*fn)(void *)) {
  pthread_t threads[4];
  static float ys[4][LENET_PROBS_ELEMENTS];
  for (int t = 0; t < 4; ++t)
    pthread_create(&threads[t], NULL, fn, ys[t]);
  int ok = 1;
  for (int t = 0; t < 4; ++t) {
    void *result;
    pthread_join(threads[t], &result);
    ok &= result == NULL;
  }
  return ok;
}

int main(void) {
  for (int i = 0; i < LENET_X_ELEMENTS; ++i)
    x[i] = (float)((i * 37) % 101) / 101.0f;
  check(lenet_run(x, want) == 0, "run");

  float y[LENET_PROBS_ELEMENTS];
  check(lenet_run(NULL, y) == 1, "NULL input");
  check(lenet_run(x, NULL) == 1, "NULL output");
  check(LENET_WORKSPACE_BYTES > 0, "LeNet has a workspace");
  char *ws = aligned_alloc(64, (LENET_WORKSPACE_BYTES + 64 + 63) / 64 * 64);
  check(lenet_run_with_workspace(x, y, NULL) == 1, "NULL workspace");
  check(lenet_run_with_workspace(x, y, ws + 8) == 1, "misaligned workspace");
  /* Garbage in the workspace does not matter. */
  memset(ws, 0x7f, LENET_WORKSPACE_BYTES);
  memset(y, 0, sizeof(y));
  check(lenet_run_with_workspace(x, y, ws) == 0 &&
            memcmp(y, want, sizeof(want)) == 0,
        "own workspace");
  free(ws);

  check(lenet_set_num_threads(-1) == 1, "negative thread count");
  check(lenet_set_num_threads(1) == 0 && lenet_run(x, y) == 0 &&
            memcmp(y, want, sizeof(want)) == 0,
        "one thread");
  check(lenet_set_num_threads(0) == 0, "default thread count");

  check(concurrently(runPlain), "concurrent lenet_run");
  check(concurrently(runOwnWorkspace), "concurrent lenet_run_with_workspace");
  return failures != 0;
}
