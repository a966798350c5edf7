/* A CPU that lacks what the code needs (archive.test): the runtime's CPU
 * check is replaced (it is weak) by one that refuses. The entry point must
 * return its status without running any of the model's code, and ask again
 * on the next call (only success is remembered). */
#include "relu.h"

#include <stdint.h>
#include <stdio.h>

static int calls;

int32_t mlc_abi_check_cpu_features(const char *features) {
  ++calls;
  printf("checked: %s\n", features);
  return 3; /* MLC_ERR_UNSUPPORTED */
}

int main(void) {
  float x[RELU_X_ELEMENTS], y[RELU_Y_ELEMENTS];
  for (int i = 0; i < RELU_X_ELEMENTS; ++i) {
    x[i] = (float)i - 4.0f;
    y[i] = 42.0f;
  }
  int first = relu_run(x, y);
  int second = relu_run_with_workspace(x, y, NULL);
  int untouched = 1;
  for (int i = 0; i < RELU_Y_ELEMENTS; ++i)
    untouched &= y[i] == 42.0f;
  printf("status %d %d, checks %d, output %s\n", first, second, calls,
         untouched ? "untouched" : "written");
  return 0;
}
