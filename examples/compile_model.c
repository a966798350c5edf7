/* compile_model: compiles a model with the compiler C API (mlc/compiler.h).
 *
 *   compile_model model.onnx model.so [mlc-compile flags ...]
 *
 * The flags are mlc-compile's ("-O3", "--input-shape", "x=1x3x224x224",
 * ...). Progress goes to stderr; on failure the diagnostics, as mlc-compile
 * prints them, and exit status 1. run_model then runs the model.so. */
#include <mlc/compiler.h>

#include <stdio.h>

static void progress(void *user, const char *phase, unsigned done,
                     unsigned total) {
  (void)user;
  if (total)
    fprintf(stderr, "compile_model: %s: %u/%u\n", phase, done, total);
  else
    fprintf(stderr, "compile_model: %s\n", phase);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: compile_model MODEL OUTPUT [flags ...]\n%s",
            mlc_compiler_flags_help());
    return 2;
  }
  if (mlc_compiler_api_version() != MLC_COMPILER_API_VERSION) {
    fprintf(stderr, "compile_model: libmlc_compiler is not this header's\n");
    return 1;
  }
  mlc_compiler *compiler = mlc_compiler_create();
  if (!compiler)
    return 1;
  mlc_compiler_set_progress(compiler, progress, NULL);
  mlc_compiler_status status = mlc_compiler_set_flags(
      compiler, argc - 3, (const char *const *)(argv + 3));
  if (status == MLC_COMPILER_OK)
    status = mlc_compiler_compile(compiler, argv[1], argv[2]);
  /* Warnings too, when it succeeded. */
  fputs(mlc_compiler_diagnostics_text(compiler), stderr);
  mlc_compiler_destroy(compiler);
  return status == MLC_COMPILER_OK ? 0 : 1;
}
