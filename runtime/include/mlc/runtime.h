/*===- mlc/runtime.h - mlc runtime C API -------------------------*- C -*-===*
 *
 * The stable C API for running models compiled by mlc-compile.
 *
 * Every model.so produced by mlc-compile links this runtime, so the
 * functions below can be called either by linking libmlc_runtime.a into an
 * application or directly from the model.so (as the Python binding does).
 *
 * Threading: any number of threads may call mlc_model_run (and the info,
 * read and save functions) on a model concurrently; each run allocates its
 * own workspace. A plain model is immutable after mlc_model_open. A
 * trainable model's variables change only under mlc_model_train_step,
 * mlc_model_write_variable, mlc_model_load_safetensors and
 * mlc_model_reset_variables, which take the model's lock exclusively (they
 * wait for runs in flight, and runs wait for them). mlc_last_error() is per
 * thread.
 *
 * Intra-op parallelism: a model's parallel loops run on a pool of worker
 * threads inside the model.so (mlc_model_set_num_threads). Only one call at
 * a time uses the pool; a call that finds it busy runs its loops on the
 * calling thread alone.
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

/* Bumped on any incompatible change of this header's types or functions.
 * Compatible additions do not bump it; the training functions below were
 * added to version 1 (test for them with MLC_RUNTIME_HAS_TRAINING, or by
 * looking up mlc_model_is_trainable in a model.so). */
#define MLC_RUNTIME_API_VERSION 1
#define MLC_RUNTIME_HAS_TRAINING 1
/* mlc_model_set_num_threads and mlc_model_num_threads exist (also added to
 * version 1). */
#define MLC_RUNTIME_HAS_NUM_THREADS 1
/* mlc_model_device and mlc_model_run_device exist (also added to version 1). */
#define MLC_RUNTIME_HAS_CUDA 1
/* The profiling functions (mlc_model_set_profiling, mlc_model_kernel_info,
 * ...) exist (also added to version 1). */
#define MLC_RUNTIME_HAS_PROFILING 1

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
  MLC_BOOL = 9,  /* one byte per element, 0 or 1 */
  MLC_BF16 = 10, /* bfloat16: the upper 16 bits of an IEEE f32 */
  MLC_U16 = 11,
  MLC_U32 = 12,
  MLC_U64 = 13
} mlc_dtype;
/* The highest dtype value this header knows. */
#define MLC_DTYPE_LAST MLC_U64

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

/* Kinds of the variables of a trainable model. Values are ABI. */
typedef enum mlc_variable_kind {
  MLC_VAR_PARAM = 1,  /* trained parameter */
  MLC_VAR_BUFFER = 2, /* model state read by inference, e.g. running stats */
  MLC_VAR_STATE = 3   /* optimizer state: momenta, moments, step count */
} mlc_variable_kind;

/* Version of this runtime's API (MLC_RUNTIME_API_VERSION it was built with). */
MLC_API uint32_t mlc_runtime_api_version(void);

/* Loads a model.so. Returns NULL on failure; see mlc_last_error(). */
MLC_API mlc_model *mlc_model_open(const char *path);
/* Unloads a model. NULL is ignored. No run may be in flight. */
MLC_API void mlc_model_close(mlc_model *model);

/* Counts; -1 (and an error message) when model is NULL. For a trainable
 * model the inputs are only the caller's ('in' lines): the runtime passes
 * the variables itself. */
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

/*===--------------------------------------------------------------------===*
 * CUDA models (mlc-compile --target=cuda; docs/cuda.md)
 *
 * mlc_model_open loads libcuda.so.1 (never before: a CPU-only machine opens
 * the model.so and gets MLC_ERR_UNSUPPORTED, "... no CUDA driver/device
 * found ..."), retains the primary context of GPU MLC_CUDA_DEVICE (an
 * environment variable; default 0), loads the kernels and, on the first
 * run, uploads the weights; all of that is released by mlc_model_close.
 * mlc_model_run takes host memory, as for CPU models: inputs are copied to
 * the GPU and outputs back. Runs of one model are serialized.
 *===--------------------------------------------------------------------===*/

/* "cpu" or "cuda"; NULL (and an error) when model is NULL. */
MLC_API const char *mlc_model_device(const mlc_model *model);

/* mlc_model_run with device memory: every data pointer is a CUDA device
 * pointer (a CUdeviceptr value) in the model's context, the primary context
 * of its GPU. Validated like mlc_model_run (outputs must not overlap inputs
 * or each other). Returns when the outputs are written; the kernels run on
 * the context's legacy default stream, so work the caller queued there
 * before is finished first. MLC_ERR_INVALID_ARGUMENT for a CPU model. */
MLC_API mlc_status mlc_model_run_device(const mlc_model *model,
                                        const mlc_tensor *inputs,
                                        int32_t num_inputs,
                                        const mlc_tensor *outputs,
                                        int32_t num_outputs);

/* The number of threads the model's parallel loops use in runs, train
 * steps and resets started after this returns: n >= 1 (at most 64 are used),
 * or 0 for the default, the number of CPUs the process may run on (its
 * affinity mask: taskset, cpusets). Negative n is MLC_ERR_INVALID_ARGUMENT.
 * Safe while other threads run the model. A model.so built before this function
 * existed ignores the setting. */
MLC_API mlc_status mlc_model_set_num_threads(mlc_model *model, int32_t n);
/* The number of threads a run uses: the setting (at most 64), or the number
 * of CPUs the process may run on (at most 64) for the default; 1 for a
 * model.so built before the setting existed. -1 (and an error) when model is
 * NULL. */
MLC_API int32_t mlc_model_num_threads(const mlc_model *model);

/*===--------------------------------------------------------------------===*
 * Profiling: time per kernel (docs/runtime-api.md, docs/performance.md)
 *
 * mlc-compile brackets every kernel of a CPU model (a fusion group: one
 * loop nest, possibly parallel) with calls into the runtime and records a
 * kernel table. While profiling is on, each call into the model adds every
 * kernel's elapsed time (CLOCK_MONOTONIC, measured on the calling thread
 * around the whole kernel, parallel loops included) and a call count to the
 * model's counters. Runs of several threads at once add up (atomically);
 * the figures are per-run times only when one run is in flight at a time.
 *===--------------------------------------------------------------------===*/

/* One kernel; strings owned by the model (valid until mlc_model_close). */
typedef struct mlc_kernel_info {
  const char *name;  /* source nodes it computes, joined with '+' */
  const char *ops;   /* graph ops it computes, e.g. "conv2d+add+relu" */
  const char *entry; /* "run" (inference), "train" (step) or "init" */
  uint64_t flops;    /* per call: 2 per multiply-add of contractions */
} mlc_kernel_info;

/* Kernels of all entries (inference first, then a trainable model's train
 * step and init); 0 for a model without a kernel table, -1 if NULL. */
MLC_API int32_t mlc_model_num_kernels(const mlc_model *model);
MLC_API mlc_status mlc_model_kernel_info(const mlc_model *model, int32_t index,
                                         mlc_kernel_info *info);
/* Turns profiling of the calls that start afterwards on (on != 0) or off.
 * MLC_ERR_UNSUPPORTED when turning it on for a model without a kernel
 * table. Safe while other threads run the model. */
MLC_API mlc_status mlc_model_set_profiling(mlc_model *model, int32_t on);
/* 1 if profiling is on, 0 if off, -1 (and an error) if NULL. */
MLC_API int32_t mlc_model_profiling(const mlc_model *model);
/* Copies, for each of the count == mlc_model_num_kernels kernels, its total
 * time in nanoseconds and the number of profiled calls that ran it, since
 * the model was opened or last reset. Either array may be NULL. */
MLC_API mlc_status mlc_model_kernel_times(const mlc_model *model,
                                          uint64_t *total_ns, uint64_t *calls,
                                          int32_t count);
/* Sets every kernel's time and call count to zero. */
MLC_API mlc_status mlc_model_reset_profile(mlc_model *model);

/*===--------------------------------------------------------------------===*
 * Training (models compiled with mlc-compile --train)
 *
 * A trainable model owns its variables: parameters (MLC_VAR_PARAM), buffers
 * read by inference such as batch-norm running statistics (MLC_VAR_BUFFER)
 * and optimizer state (MLC_VAR_STATE). mlc_model_open allocates them and
 * sets them to the model's initial values; mlc_model_run uses their current
 * values. On a model that is not trainable, the counts below are 0 and the
 * other functions fail with MLC_ERR_INVALID_ARGUMENT.
 *===--------------------------------------------------------------------===*/

/* 1 if the model is trainable, 0 if not, -1 (and an error) if NULL. */
MLC_API int32_t mlc_model_is_trainable(const mlc_model *model);

/* The inputs of one training step (the batch, labels included). */
MLC_API int32_t mlc_model_num_train_inputs(const mlc_model *model);
MLC_API mlc_status mlc_model_train_input_info(const mlc_model *model,
                                              int32_t index,
                                              mlc_tensor_info *info);

/* One optimizer step on a batch: inputs in train-input order, validated like
 * mlc_model_run's (nothing changes on error). Afterwards every variable
 * holds its updated value. *loss receives the batch loss (loss may be NULL).
 * Exclusive: waits for runs in flight. */
MLC_API mlc_status mlc_model_train_step(mlc_model *model,
                                        const mlc_tensor *inputs,
                                        int32_t num_inputs, float *loss);

/* Variables, in the model's order: params, then buffers, then state. kind
 * may be NULL. Index of the variable with this name, or -1. */
MLC_API int32_t mlc_model_num_variables(const mlc_model *model);
MLC_API mlc_status mlc_model_variable_info(const mlc_model *model,
                                           int32_t index, mlc_tensor_info *info,
                                           mlc_variable_kind *kind);
MLC_API int32_t mlc_model_find_variable(const mlc_model *model,
                                        const char *name);

/* Copy a variable's current value out of / into the model. size must be the
 * variable's size_bytes (dense row-major data of its dtype). Writing is
 * exclusive. */
MLC_API mlc_status mlc_model_read_variable(const mlc_model *model,
                                           int32_t index, void *dst,
                                           uint64_t size);
MLC_API mlc_status mlc_model_write_variable(mlc_model *model, int32_t index,
                                            const void *src, uint64_t size);

/* Sets every variable (optimizer state included) back to the model's
 * initial values. Exclusive. */
MLC_API mlc_status mlc_model_reset_variables(mlc_model *model);

/* Writes the params and buffers (and the optimizer state if include_state)
 * to a safetensors file, atomically: the data goes to a temporary file next
 * to path that is renamed over it, so on error path is left untouched. */
MLC_API mlc_status mlc_model_save_safetensors(const mlc_model *model,
                                              const char *path,
                                              int32_t include_state);
/* Loads variables from a safetensors file. Every param and buffer must be
 * present with its exact dtype and shape; state variables are optional (the
 * current state is kept for those missing); any other tensor is an error.
 * Everything is checked first: on error no variable changes. Exclusive. */
MLC_API mlc_status mlc_model_load_safetensors(mlc_model *model,
                                              const char *path);

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
