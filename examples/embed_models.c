/* embed_models: two models linked statically into one program, without
 * dlopen (docs/embedding.md).
 *
 *   embed_models lenet_x.f32 mlp_x.f32
 *
 * lenet.a/lenet.h and mlp.a/mlp.h come from
 *   mlc-compile models/lenet/model.json -o lenet.a
 *   mlc-compile models/mlp/model.json -o mlp.a
 * and the program links them with libmlc_runtime.a (CMakeLists.txt). Each
 * input file holds the input's float32 values (row-major, native byte
 * order). Prints every output as "name: v0 v1 ..." on one line. */
#include "lenet.h"
#include "mlp.h"

#include <stdio.h>
#include <stdlib.h>

static int readFloats(const char *path, float *data, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "embed_models: cannot open %s\n", path);
    return 0;
  }
  /* One more than expected: a longer file is an error too. */
  float extra;
  size_t got = fread(data, sizeof(float), n, f);
  got += fread(&extra, sizeof(float), 1, f);
  fclose(f);
  if (got != n) {
    fprintf(stderr, "embed_models: %s: expected %zu float32 values\n", path,
            n);
    return 0;
  }
  return 1;
}

static void print(const char *name, const float *data, size_t n) {
  printf("%s:", name);
  for (size_t i = 0; i < n; ++i)
    printf(" %.9g", data[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: embed_models lenet_x.f32 mlp_x.f32\n");
    return 2;
  }
  static float lenetX[LENET_X_ELEMENTS], lenetProbs[LENET_PROBS_ELEMENTS];
  static float mlpX[MLP_X_ELEMENTS], mlpLogits[MLP_LOGITS_ELEMENTS];
  if (!readFloats(argv[1], lenetX, LENET_X_ELEMENTS) ||
      !readFloats(argv[2], mlpX, MLP_X_ELEMENTS))
    return 1;

  /* LeNet on the archive's own workspace; one thread for its kernels. */
  int status = lenet_set_num_threads(1);
  if (status == 0)
    status = lenet_run(lenetX, lenetProbs);
  if (status != 0) {
    fprintf(stderr, "embed_models: lenet_run failed (%d)\n", status);
    return 1;
  }

  /* The MLP on a workspace of the caller's (64-byte aligned, as the
   * header asks); with MLP_WORKSPACE_BYTES == 0 it may be NULL. */
  void *workspace = NULL;
  if (MLP_WORKSPACE_BYTES > 0) {
    size_t bytes = (MLP_WORKSPACE_BYTES + MLP_WORKSPACE_ALIGN - 1) /
                   MLP_WORKSPACE_ALIGN * MLP_WORKSPACE_ALIGN;
    workspace = aligned_alloc(MLP_WORKSPACE_ALIGN, bytes);
    if (!workspace)
      return 1;
  }
  status = mlp_run_with_workspace(mlpX, mlpLogits, workspace);
  free(workspace);
  if (status != 0) {
    fprintf(stderr, "embed_models: mlp_run_with_workspace failed (%d)\n",
            status);
    return 1;
  }

  print("lenet_probs", lenetProbs, LENET_PROBS_ELEMENTS);
  print("mlp_logits", mlpLogits, MLP_LOGITS_ELEMENTS);
  return 0;
}
