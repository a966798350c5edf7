/*===- mlc/runtime.h - mlc runtime C API -------------------------*- C -*-===*
 *
 * The stable C API for running models compiled by mlc-compile.
 *
 * Every model.so produced by mlc-compile links this runtime, so the
 * functions below can be called either by linking libmlc_runtime.a into an
 * application or directly from the model.so (as the Python binding does).
 *
 * Threading: a loaded model is immutable after mlc_model_open; any number of
 * threads may call mlc_model_run on it concurrently (each run allocates its
 * own workspace). mlc_last_error() is per thread.
 *
 * See docs/runtime-api.md.
 *===----------------------------------------------------------------------===*/
#ifndef MLC_RUNTIME_H
#define MLC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define MLC_API __attribute__((visibility("default")))
#else
#define MLC_API
#endif

/* Bumped on any incompatible change of this header's types or functions. */
#define MLC_RUNTIME_API_VERSION 1

/* Element types. Values are part of the ABI: never renumber. */
typedef enum mlc_dtype {
  MLC_DTYPE_INVALID = 0,
  MLC_F32 = 1,
  MLC_F64 = 2,
  MLC_F16 = 3,
  MLC_I8 = 4,
  MLC_I16 = 5,
  MLC_I32 = 6,
  MLC_I64 = 7,
  MLC_U8 = 8,
  MLC_BOOL = 9, /* one byte per element, 0 or 1 */
  MLC_BF16 = 10 /* bfloat16: the upper 16 bits of an IEEE f32 */
} mlc_dtype;

typedef enum mlc_status {
  MLC_OK = 0,
  MLC_ERR_INVALID_ARGUMENT = 1, /* bad pointer, count, dtype or shape */
  MLC_ERR_LOAD = 2,             /* model file missing, not a model, ABI */
  MLC_ERR_UNSUPPORTED = 3,      /* e.g. CPU lacks features the model uses */
  MLC_ERR_OUT_OF_MEMORY = 4,
  MLC_ERR_INTERNAL = 5
} mlc_status;

/* A caller-owned dense row-major tensor. */
typedef struct mlc_tensor {
  void *data;
  mlc_dtype dtype;
  int32_t rank;
  const int64_t *shape; /* rank entries; may be NULL when rank == 0 */
} mlc_tensor;

/* Description of a model input or output; storage owned by the model. */
typedef struct mlc_tensor_info {
  const char *name;
  mlc_dtype dtype;
  int32_t rank;
  const int64_t *shape;
  uint64_t num_elements;
  uint64_t size_bytes;
} mlc_tensor_info;

typedef struct mlc_model mlc_model;

/* Version of this runtime's API (MLC_RUNTIME_API_VERSION it was built with). */
MLC_API uint32_t mlc_runtime_api_version(void);

/* Loads a model.so. Returns NULL on failure; see mlc_last_error(). */
MLC_API mlc_model *mlc_model_open(const char *path);
/* Unloads a model. NULL is ignored. No run may be in flight. */
MLC_API void mlc_model_close(mlc_model *model);

/* Counts; -1 (and an error message) when model is NULL. */
MLC_API int32_t mlc_model_num_inputs(const mlc_model *model);
MLC_API int32_t mlc_model_num_outputs(const mlc_model *model);

MLC_API mlc_status mlc_model_input_info(const mlc_model *model, int32_t index,
                                        mlc_tensor_info *info);
MLC_API mlc_status mlc_model_output_info(const mlc_model *model, int32_t index,
                                         mlc_tensor_info *info);
/* Index of the input/output with this name, or -1. */
MLC_API int32_t mlc_model_find_input(const mlc_model *model, const char *name);
MLC_API int32_t mlc_model_find_output(const mlc_model *model, const char *name);

/* Bytes of scratch memory one run allocates; 0 (and an error) when model is
 * NULL. Not called mlc_model_workspace_bytes: that name is the model ABI
 * symbol (model_abi.h) defined by the model.so this runtime is linked into. */
MLC_API uint64_t mlc_model_workspace_size(const mlc_model *model);

/* Runs the model. inputs/outputs are in declaration order; outputs are
 * written into the caller's buffers. Everything (counts, null pointers,
 * dtypes, shapes, overlapping buffers) is validated before any kernel runs;
 * on error nothing is written and a message is available. */
MLC_API mlc_status mlc_model_run(const mlc_model *model,
                                 const mlc_tensor *inputs, int32_t num_inputs,
                                 const mlc_tensor *outputs,
                                 int32_t num_outputs);

/* Message of the last failed call on this thread ("" if none). Successful
 * calls leave it unchanged. */
MLC_API const char *mlc_last_error(void);
/* Status of the last failed call on this thread (MLC_OK if none); useful
 * after mlc_model_open, which returns only NULL. */
MLC_API mlc_status mlc_last_status(void);

/* "f32", "i64", "bool", ...; "invalid" for unknown values. */
MLC_API const char *mlc_dtype_name(mlc_dtype dtype);
/* Bytes per element; 0 for unknown values. */
MLC_API size_t mlc_dtype_size(mlc_dtype dtype);
/* Inverse of mlc_dtype_name; MLC_DTYPE_INVALID when unknown. */
MLC_API mlc_dtype mlc_dtype_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* MLC_RUNTIME_H */
