/* run_model: runs a model compiled by mlc-compile on raw inputs.
 *
 *   run_model model.so input0.f32 [input1.f32 ...]
 *
 * Each input file holds the input's float32 values (row-major, native
 * byte order), exactly as many as its shape has. Prints every output as
 * "name: v0 v1 ..." on one line. Exit status 1 with the runtime's message
 * on any error. */
#include <mlc/runtime.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what) {
  fprintf(stderr, "run_model: %s: %s\n", what, mlc_last_error());
  return 1;
}

static size_t count(const int64_t *shape, int32_t rank) {
  size_t n = 1;
  for (int32_t i = 0; i < rank; ++i)
    n *= (size_t)shape[i];
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: run_model model.so input0.f32 ...\n");
    return 2;
  }
  mlc_model *model = mlc_model_open(argv[1]);
  if (!model)
    return fail(argv[1]);
  int32_t numInputs = mlc_model_num_inputs(model);
  int32_t numOutputs = mlc_model_num_outputs(model);
  if (argc - 2 != numInputs) {
    fprintf(stderr, "run_model: the model has %d inputs, got %d files\n",
            numInputs, argc - 2);
    mlc_model_close(model);
    return 2;
  }
  mlc_tensor *inputs = calloc((size_t)numInputs, sizeof(mlc_tensor));
  mlc_tensor *outputs = calloc((size_t)numOutputs, sizeof(mlc_tensor));
  int status = 0;
  for (int32_t i = 0; i < numInputs && !status; ++i) {
    mlc_tensor_info info;
    if (mlc_model_input_info(model, i, &info) != MLC_OK ||
        info.dtype != MLC_F32) {
      fprintf(stderr, "run_model: input %d is not float32\n", i);
      status = 1;
      break;
    }
    size_t n = count(info.shape, info.rank);
    float *data = malloc(n * sizeof(float) + 1);
    FILE *f = fopen(argv[2 + i], "rb");
    size_t got = f ? fread(data, sizeof(float), n + 1, f) : 0;
    if (f)
      fclose(f);
    if (got != n) {
      fprintf(stderr, "run_model: %s: expected %zu float32 values\n",
              argv[2 + i], n);
      free(data);
      status = 1;
      break;
    }
    inputs[i].data = data;
    inputs[i].dtype = MLC_F32;
    inputs[i].rank = info.rank;
    inputs[i].shape = info.shape;
  }
  for (int32_t i = 0; i < numOutputs && !status; ++i) {
    mlc_tensor_info info;
    if (mlc_model_output_info(model, i, &info) != MLC_OK ||
        info.dtype != MLC_F32) {
      fprintf(stderr, "run_model: output %d is not float32\n", i);
      status = 1;
      break;
    }
    outputs[i].data = malloc(count(info.shape, info.rank) * sizeof(float));
    outputs[i].dtype = MLC_F32;
    outputs[i].rank = info.rank;
    outputs[i].shape = info.shape;
  }
  if (!status && mlc_model_run(model, inputs, numInputs, outputs,
                               numOutputs) != MLC_OK)
    status = fail("run");
  for (int32_t i = 0; i < numOutputs && !status; ++i) {
    mlc_tensor_info info;
    mlc_model_output_info(model, i, &info);
    printf("%s:", info.name);
    size_t n = count(info.shape, info.rank);
    for (size_t k = 0; k < n; ++k)
      printf(" %.9g", ((const float *)outputs[i].data)[k]);
    printf("\n");
  }
  for (int32_t i = 0; i < numInputs; ++i)
    free(inputs[i].data);
  for (int32_t i = 0; i < numOutputs; ++i)
    free(outputs[i].data);
  free(inputs);
  free(outputs);
  mlc_model_close(model);
  return status;
}
