/*===- compiler_capi_test.c - the compiler C API from a C program --------===*
 *
 * mlc-capi-test MODELS OUT BROKEN: compiles models/mlp and models/lenet on
 * two threads at once (one compiler object each), opens the model.so files
 * with the runtime and checks their outputs against the PyTorch references
 * in MODELS/<name>/expected; compiles the MLP to memory and checks that it
 * computes the same; checks the errors (flags, a broken model.json BROKEN
 * whose error is at a node, misuse) and the progress callback. Prints one
 * line per check and "all passed"; exits 1 at the first failure.
 *===----------------------------------------------------------------------===*/
#include "mlc/compiler.h"
#include "mlc/runtime.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* A float32 .npy file's data (little-endian '<f4', C order); count is set
 * to its number of floats. */
static float *readNpy(const char *path, size_t *count) {
  FILE *f = fopen(path, "rb");
  CHECK(f, "cannot open %s", path);
  unsigned char head[10];
  CHECK(fread(head, 1, 10, f) == 10 && memcmp(head, "\x93NUMPY", 6) == 0,
        "%s is not an .npy file", path);
  size_t headerLen = head[8] | (head[9] << 8);
  char header[1024];
  CHECK(headerLen < sizeof(header) && fread(header, 1, headerLen, f) ==
                                          headerLen,
        "%s: bad header", path);
  header[headerLen] = 0;
  CHECK(strstr(header, "'<f4'") && strstr(header, "False"),
        "%s is not C-ordered float32", path);
  long start = ftell(f);
  fseek(f, 0, SEEK_END);
  size_t bytes = (size_t)(ftell(f) - start);
  fseek(f, start, SEEK_SET);
  float *data = malloc(bytes);
  CHECK(data && fread(data, 1, bytes, f) == bytes, "%s: short read", path);
  fclose(f);
  *count = bytes / sizeof(float);
  return data;
}

/* Runs the one-input one-output float model at `so` on `input` into
 * `output` (`outCount` floats). */
static void runModel(const char *so, const float *input, size_t inCount,
                     float *output, size_t outCount) {
  mlc_model *model = mlc_model_open(so);
  CHECK(model, "mlc_model_open(%s): %s", so, mlc_last_error());
  CHECK(mlc_model_num_inputs(model) == 1 && mlc_model_num_outputs(model) == 1,
        "%s: expected one input and one output", so);
  mlc_tensor_info in, out;
  CHECK(mlc_model_input_info(model, 0, &in) == MLC_OK &&
            mlc_model_output_info(model, 0, &out) == MLC_OK,
        "%s", mlc_last_error());
  size_t n = 1;
  for (int i = 0; i < in.rank; ++i)
    n *= (size_t)in.shape[i];
  CHECK(n == inCount, "%s: input has %zu elements, the sample %zu", so, n,
        inCount);
  /* The runtime only reads inputs; its struct has one pointer type. */
  mlc_tensor x = {(void *)(uintptr_t)input, MLC_F32, in.rank, in.shape};
  mlc_tensor y = {output, MLC_F32, out.rank, out.shape};
  n = 1;
  for (int i = 0; i < out.rank; ++i)
    n *= (size_t)out.shape[i];
  CHECK(n == outCount, "%s: output has %zu elements, expected %zu", so, n,
        outCount);
  CHECK(mlc_model_run(model, &x, 1, &y, 1) == MLC_OK, "run %s: %s", so,
        mlc_last_error());
  mlc_model_close(model);
}

typedef struct Job {
  const char *models, *out, *name;
  char so[4096];
  mlc_compiler_status status;
  char diagnostics[4096];
  int phases; /* progress callbacks with a phase name */
} Job;

static void onProgress(void *user, const char *phase, unsigned done,
                       unsigned total) {
  Job *job = user;
  if (phase && *phase && done <= total)
    ++job->phases;
}

static void *compileJob(void *arg) {
  Job *job = arg;
  char input[4096];
  snprintf(input, sizeof(input), "%s/%s/model.json", job->models, job->name);
  snprintf(job->so, sizeof(job->so), "%s/%s.so", job->out, job->name);
  mlc_compiler *c = mlc_compiler_create();
  if (!c) {
    job->status = MLC_COMPILER_ERR_OUT_OF_MEMORY;
    return NULL;
  }
  mlc_compiler_set_progress(c, onProgress, job);
  const char *flags[] = {"-O2", "-j", "1", "--cpu=native"};
  job->status = mlc_compiler_set_flags(c, 4, flags);
  if (job->status == MLC_COMPILER_OK)
    job->status = mlc_compiler_compile(c, input, job->so);
  snprintf(job->diagnostics, sizeof(job->diagnostics), "%s",
           mlc_compiler_diagnostics_text(c));
  mlc_compiler_destroy(c);
  return NULL;
}

/* The model's output on its bundled input against the PyTorch reference. */
static void checkAgainstReference(const Job *job, const char *expected) {
  char path[4096];
  size_t inCount, refCount;
  snprintf(path, sizeof(path), "%s/%s/inputs/x.npy", job->models, job->name);
  float *x = readNpy(path, &inCount);
  snprintf(path, sizeof(path), "%s/%s/expected/%s", job->models, job->name,
           expected);
  float *ref = readNpy(path, &refCount);
  float *y = calloc(refCount, sizeof(float));
  runModel(job->so, x, inCount, y, refCount);
  for (size_t i = 0; i < refCount; ++i)
    CHECK(fabsf(y[i] - ref[i]) <= 1e-4f + 1e-4f * fabsf(ref[i]),
          "%s: output %zu is %g, PyTorch %g", job->name, i, y[i], ref[i]);
  printf("ok %s: compiled on its own thread, %zu outputs match PyTorch, "
         "progress reported\n",
         job->name, refCount);
  free(x);
  free(ref);
  free(y);
}

static const char *firstText(mlc_compiler *c) {
  mlc_diagnostic d;
  CHECK(mlc_compiler_get_diagnostic(c, 0, &d) == MLC_COMPILER_OK,
        "no diagnostic");
  return d.text;
}

static void checkErrors(const char *broken, const char *out) {
  mlc_compiler *c = mlc_compiler_create();
  CHECK(c, "create");

  /* A bad flag is refused with nothing of the call kept. */
  const char *bad[] = {"-O1", "--no-such-flag"};
  CHECK(mlc_compiler_set_flags(c, 2, bad) == MLC_COMPILER_ERR_FLAGS, "bad");
  CHECK(mlc_compiler_num_diagnostics(c) == 1, "one diagnostic");
  CHECK(strcmp(firstText(c), "mlc: error: unknown flag '--no-such-flag'\n") ==
            0,
        "got '%s'", firstText(c));
  const char *emit[] = {"--emit", "pdf"};
  CHECK(mlc_compiler_set_flags(c, 2, emit) == MLC_COMPILER_ERR_FLAGS, "emit");
  CHECK(strstr(mlc_compiler_diagnostics_text(c),
               "--emit expects mlir, dot, llvm, asm, obj, so or archive, got 'pdf'"),
        "got '%s'", mlc_compiler_diagnostics_text(c));
  const char *missing[] = {"--cpu"};
  CHECK(mlc_compiler_set_flags(c, 1, missing) == MLC_COMPILER_ERR_FLAGS,
        "missing value");
  CHECK(strstr(mlc_compiler_diagnostics_text(c), "--cpu expects a value"),
        "got '%s'", mlc_compiler_diagnostics_text(c));
  /* Options that do not go together: checked at compile, as the tool does. */
  const char *level[] = {"-O7"};
  CHECK(mlc_compiler_set_flags(c, 1, level) == MLC_COMPILER_OK, "-O7 parses");
  char so[4096];
  snprintf(so, sizeof(so), "%s/never.so", out);
  CHECK(mlc_compiler_compile(c, broken, so) == MLC_COMPILER_ERR_FLAGS, "-O7");
  CHECK(strcmp(mlc_compiler_diagnostics_text(c),
               "mlc: error: -O7 is not a valid level (0-3)\n") == 0,
        "got '%s'", mlc_compiler_diagnostics_text(c));
  /* Outputs of two files cannot go to memory. */
  const char *archive[] = {"-O2", "--emit=archive"};
  const void *bytes = NULL;
  size_t size = 0;
  CHECK(mlc_compiler_set_flags(c, 2, archive) == MLC_COMPILER_OK, "archive");
  CHECK(mlc_compiler_compile_to_memory(c, broken, &bytes, &size) ==
                MLC_COMPILER_ERR_FLAGS &&
            strstr(mlc_compiler_diagnostics_text(c),
                   "--emit=archive writes two files") &&
            !bytes && size == 0,
        "archive to memory: '%s'", mlc_compiler_diagnostics_text(c));
  CHECK(mlc_compiler_reset_flags(c) == MLC_COMPILER_OK &&
            mlc_compiler_num_diagnostics(c) == 0,
        "reset");
  printf("ok flag errors\n");

  /* A broken model: the error names the file and the node. */
  CHECK(mlc_compiler_compile(c, broken, so) == MLC_COMPILER_ERR_COMPILE,
        "broken model compiled");
  mlc_diagnostic d;
  CHECK(mlc_compiler_get_diagnostic(c, 0, &d) == MLC_COMPILER_OK, "diag");
  CHECK(d.severity == MLC_DIAGNOSTIC_ERROR && strcmp(d.file, broken) == 0 &&
            strncmp(d.place, "nodes[", 6) == 0 && d.line == 0,
        "file '%s' place '%s'", d.file, d.place);
  CHECK(strstr(d.text, d.place) && strstr(d.text, d.message), "text '%s'",
        d.text);
  FILE *f = fopen(so, "rb");
  CHECK(!f, "a failed compile left %s behind", so);
  printf("ok broken model: %s", d.text);

  /* Misuse never crashes. */
  CHECK(mlc_compiler_compile(NULL, broken, so) ==
            MLC_COMPILER_ERR_INVALID_ARGUMENT,
        "NULL compiler");
  CHECK(mlc_compiler_set_flags(c, 1, NULL) ==
            MLC_COMPILER_ERR_INVALID_ARGUMENT,
        "NULL argv");
  const char *nullArg[] = {NULL};
  CHECK(mlc_compiler_set_flags(c, 1, nullArg) ==
            MLC_COMPILER_ERR_INVALID_ARGUMENT,
        "NULL argv[0]");
  CHECK(mlc_compiler_get_diagnostic(c, 5, &d) ==
            MLC_COMPILER_ERR_INVALID_ARGUMENT,
        "index out of range");
  CHECK(mlc_compiler_compile_to_memory(c, broken, NULL, NULL) ==
            MLC_COMPILER_ERR_INVALID_ARGUMENT,
        "NULL data");
  CHECK(mlc_compiler_compile(c, NULL, NULL) == MLC_COMPILER_ERR_FLAGS &&
            strstr(mlc_compiler_diagnostics_text(c), "no input file"),
        "no input: '%s'", mlc_compiler_diagnostics_text(c));
  CHECK(strcmp(mlc_compiler_diagnostics_text(NULL), "") == 0, "NULL text");
  mlc_compiler_destroy(NULL);
  mlc_compiler_destroy(c);
  printf("ok misuse\n");
}

/* The MLP compiled to memory, written out and run: the same outputs. */
static void checkMemory(const Job *mlp, const char *out) {
  mlc_compiler *c = mlc_compiler_create();
  char input[4096], so[4096];
  snprintf(input, sizeof(input), "%s/mlp/model.json", mlp->models);
  const void *data = NULL;
  size_t size = 0;
  CHECK(mlc_compiler_compile_to_memory(c, input, &data, &size) ==
            MLC_COMPILER_OK,
        "%s", mlc_compiler_diagnostics_text(c));
  CHECK(data && size > 4 && memcmp(data, "\x7f" "ELF", 4) == 0,
        "not a shared library");
  snprintf(so, sizeof(so), "%s/from-memory.so", out);
  FILE *f = fopen(so, "wb");
  CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "write");
  mlc_compiler_destroy(c);

  char path[4096];
  size_t n, m;
  snprintf(path, sizeof(path), "%s/mlp/inputs/x.npy", mlp->models);
  float *x = readNpy(path, &n);
  snprintf(path, sizeof(path), "%s/mlp/expected/logits.npy", mlp->models);
  free(readNpy(path, &m));
  float *a = calloc(m, sizeof(float)), *b = calloc(m, sizeof(float));
  runModel(mlp->so, x, n, a, m);
  runModel(so, x, n, b, m);
  CHECK(memcmp(a, b, m * sizeof(float)) == 0,
        "the model from memory computes otherwise");
  printf("ok compile to memory: %zu bytes, same outputs\n", size);
  free(x);
  free(a);
  free(b);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODELS OUT BROKEN.json\n", argv[0]);
    return 2;
  }
  CHECK(mlc_compiler_api_version() == MLC_COMPILER_API_VERSION, "version");
  CHECK(strlen(mlc_compiler_version()) > 0, "version string");
  CHECK(strstr(mlc_compiler_flags_help(), "--input-shape=<NAME=DIMS>"),
        "help");

  Job jobs[2] = {{argv[1], argv[2], "mlp"}, {argv[1], argv[2], "lenet"}};
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i)
    CHECK(pthread_create(&threads[i], NULL, compileJob, &jobs[i]) == 0,
          "thread");
  for (int i = 0; i < 2; ++i) {
    pthread_join(threads[i], NULL);
    CHECK(jobs[i].status == MLC_COMPILER_OK, "%s: %s", jobs[i].name,
          jobs[i].diagnostics);
    CHECK(jobs[i].phases >= 3, "%s: %d progress calls", jobs[i].name,
          jobs[i].phases);
  }
  checkAgainstReference(&jobs[0], "logits.npy");
  checkAgainstReference(&jobs[1], "probs.npy");
  checkMemory(&jobs[0], argv[2]);
  checkErrors(argv[3], argv[2]);
  printf("all passed\n");
  return 0;
}
