/*===- mlc/compiler.h - the mlc compiler's C API ------------------*- C -*-===*
 *
 * Compiles a model (model.json, ONNX or graph-dialect .mlir) from a C or
 * C++ program, with the flags and the error messages of mlc-compile:
 *
 *   mlc_compiler *c = mlc_compiler_create();
 *   const char *flags[] = {"-O3", "--input-shape", "x=1x3x224x224"};
 *   if (mlc_compiler_set_flags(c, 3, flags) != MLC_COMPILER_OK ||
 *       mlc_compiler_compile(c, "model.onnx", "model.so") != MLC_COMPILER_OK)
 *     fputs(mlc_compiler_diagnostics_text(c), stderr);
 *   mlc_compiler_destroy(c);
 *
 * The model.so is then opened with the runtime (mlc/runtime.h). Link with
 * libmlc_compiler.so (CMake: mlc::compiler; pkg-config: mlc-compiler).
 * A model.so links the runtime archive libmlc_runtime.a found next to
 * libmlc_compiler.so unless --runtime-lib names another.
 *
 * Threads: a compiler object is used by one thread at a time; separate
 * objects compile concurrently (nothing here touches process-wide state
 * after the first mlc_compiler_create).
 *
 * Errors: every call that can fail returns an mlc_compiler_status and
 * records why as diagnostics, which stay readable until the next call on
 * the same object: where (file, model.json path or ONNX node, line) and the
 * text mlc-compile would print. A failed compile leaves no output behind.
 *===----------------------------------------------------------------------===*/
#ifndef MLC_COMPILER_H
#define MLC_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a declaration here changes incompatibly. */
#define MLC_COMPILER_API_VERSION 1

#if defined(__GNUC__)
#define MLC_COMPILER_EXPORT __attribute__((visibility("default")))
#else
#define MLC_COMPILER_EXPORT
#endif

typedef enum mlc_compiler_status {
  MLC_COMPILER_OK = 0,
  /* A NULL object or pointer, or an index out of range. */
  MLC_COMPILER_ERR_INVALID_ARGUMENT = 1,
  /* A malformed or unknown flag, or options that do not go together. */
  MLC_COMPILER_ERR_FLAGS = 2,
  /* The model could not be compiled (see the diagnostics). */
  MLC_COMPILER_ERR_COMPILE = 3,
  MLC_COMPILER_ERR_OUT_OF_MEMORY = 4,
} mlc_compiler_status;

typedef enum mlc_diagnostic_severity {
  MLC_DIAGNOSTIC_ERROR = 0,
  MLC_DIAGNOSTIC_WARNING = 1,
  MLC_DIAGNOSTIC_NOTE = 2,
  MLC_DIAGNOSTIC_REMARK = 3,
} mlc_diagnostic_severity;

typedef struct mlc_diagnostic {
  mlc_diagnostic_severity severity;
  /* The model file, or "" for errors without a place in one (flags,
   * files, the linker). */
  const char *file;
  /* The model.json path ("nodes[2].inputs[0]") or the ONNX node, or "". */
  const char *place;
  /* 1-based line and column in a text input (.mlir), 0 if not known. */
  uint32_t line;
  uint32_t column;
  const char *message;
  /* As mlc-compile prints it (location, severity, message, notes), ending
   * in a newline. */
  const char *text;
} mlc_diagnostic;

typedef struct mlc_compiler mlc_compiler;

/* MLC_COMPILER_API_VERSION of the library (check it against the header's). */
MLC_COMPILER_EXPORT uint32_t mlc_compiler_api_version(void);
/* The mlc release, e.g. "0.1.0". */
MLC_COMPILER_EXPORT const char *mlc_compiler_version(void);

/* A compiler object with mlc-compile's default options, or NULL when out of
 * memory. */
MLC_COMPILER_EXPORT mlc_compiler *mlc_compiler_create(void);
/* NULL is allowed. */
MLC_COMPILER_EXPORT void mlc_compiler_destroy(mlc_compiler *compiler);

/* Adds flags as mlc-compile takes them ("-O3", "--cpu=generic", "--bind",
 * "x=x.pb", ...; `mlc_compiler_flags_help` lists them). Calls accumulate:
 * a later flag overrides an earlier one and repeatable flags add up. A word
 * without a dash is the input file. On a malformed or unknown flag nothing
 * of this call is kept and MLC_COMPILER_ERR_FLAGS is returned. MLIR's and
 * LLVM's own options (--mlir-*) are the tool's alone: unknown here. */
MLC_COMPILER_EXPORT mlc_compiler_status mlc_compiler_set_flags(
    mlc_compiler *compiler, int argc, const char *const *argv);
/* Back to the default options. */
MLC_COMPILER_EXPORT mlc_compiler_status
mlc_compiler_reset_flags(mlc_compiler *compiler);

/* Compiles `input` into `output` (each NULL: the one the flags gave, e.g.
 * "-o"). What is written follows --emit, else the output's suffix (.so: a
 * model.so, .o, .s, .ll, .mlir, .dot). */
MLC_COMPILER_EXPORT mlc_compiler_status mlc_compiler_compile(
    mlc_compiler *compiler, const char *input, const char *output);

/* Compiles `input` (NULL: the flags') into memory: what --emit says (default
 * a model.so). On success *data and *size hold the bytes, owned by the
 * compiler object until its next compile or its destruction. Not for
 * --weights=external or --emit=archive (two files each). */
MLC_COMPILER_EXPORT mlc_compiler_status mlc_compiler_compile_to_memory(
    mlc_compiler *compiler, const char *input, const void **data, size_t *size);

/* Diagnostics of the last call on `compiler` (set_flags, reset_flags or a
 * compile), warnings included. */
MLC_COMPILER_EXPORT size_t
mlc_compiler_num_diagnostics(const mlc_compiler *compiler);
/* Fills *out with diagnostic `index`; its strings live as long as the
 * diagnostics do. */
MLC_COMPILER_EXPORT mlc_compiler_status mlc_compiler_get_diagnostic(
    const mlc_compiler *compiler, size_t index, mlc_diagnostic *out);
/* All of them as mlc-compile prints them ("" if none; "" for NULL). */
MLC_COMPILER_EXPORT const char *
mlc_compiler_diagnostics_text(const mlc_compiler *compiler);

/* Called as a compile advances, on the compiling thread or (for parts) on
 * the code generation threads, never two at a time: `phase` names the phase
 * ("import", "graph pipeline", "code generation", ...); `done` of `total`
 * back-end parts are compiled (0 of 0 outside code generation). NULL turns
 * it off. */
typedef void (*mlc_compiler_progress_fn)(void *user, const char *phase,
                                         unsigned done, unsigned total);
MLC_COMPILER_EXPORT void
mlc_compiler_set_progress(mlc_compiler *compiler,
                          mlc_compiler_progress_fn callback, void *user);

/* Every flag with its description, as mlc-compile --help lists them. */
MLC_COMPILER_EXPORT const char *mlc_compiler_flags_help(void);

#ifdef __cplusplus
}
#endif

#endif /* MLC_COMPILER_H */
