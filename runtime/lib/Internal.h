//===- Internal.h - mlc runtime internals -----------------------*- C++ -*-===//
//
// Declarations shared by the runtime's translation units. Everything here has
// hidden visibility (the runtime is built with -fvisibility=hidden), so it
// never clashes with another runtime copy inside another model.so. The runtime
// avoids libstdc++ entirely (no new/delete, no std::) because it is linked into
// every model.so, which is only linked against libc, libm, libdl and
// libpthread.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_INTERNAL_H
#define MLC_RUNTIME_INTERNAL_H

#include "mlc/model_abi.h"
#include "mlc/runtime.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// Limits that keep every size computation far from overflow.
constexpr int32_t kMaxRank = 64;
constexpr int32_t kMaxTensors = 1 << 20;
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 62;

/// The kind of a signature line (see mlc/model_abi.h). Inputs are Param,
/// Buffer, State and In, in that order; outputs are Out, then Update.
enum class LineKind : uint8_t { Param, Buffer, State, In, Out, Update };

inline bool isInputKind(LineKind kind) { return kind <= LineKind::In; }
inline bool isVariableKind(LineKind kind) { return kind < LineKind::In; }
/// "param", "in", ... as written in signatures.
const char *lineKindName(LineKind kind);

/// One input or output as declared by the model's signature.
struct TensorDesc {
  char *name;
  LineKind kind;
  mlc_dtype dtype;
  int32_t rank;
  int64_t *shape; // NULL when rank == 0
  uint64_t numElements;
  uint64_t sizeBytes;
};

/// The parsed signature: inputs first, then outputs. The first
/// numVariableInputs inputs are param/buffer/state lines.
struct Signature {
  int32_t numInputs;
  int32_t numOutputs;
  int32_t numVariableInputs;
  TensorDesc *tensors;
};

/// Parses the signature text described in mlc/model_abi.h into `sig` (which
/// must be zero-initialized). Only in/out lines are accepted unless
/// `allowVariables`, which also accepts param/buffer/state/update lines in
/// the order the ABI prescribes. On failure, writes a message (without
/// prefix) into `err` and returns false; `sig` must still be released with
/// freeSignature.
bool parseSignature(const char *text, Signature *sig, char *err, size_t errSize,
                    bool allowVariables = false);
void freeSignature(Signature *sig);

/// Known CPU feature names (see model_abi.h); index i is bit i of a mask.
int32_t cpuFeatureCount();
const char *cpuFeatureName(int32_t index);
/// Bit mask of the known features this CPU supports.
uint32_t hostCpuFeatureMask();
/// Checks a comma-separated feature list against `supportedMask`. On
/// failure, writes a message into `err` and returns the status
/// (MLC_ERR_UNSUPPORTED for missing or unknown features).
mlc_status checkCpuFeatures(const char *features, uint32_t supportedMask,
                            char *err, size_t errSize);

/// Sets this thread's last error; returns `status` for convenience.
mlc_status setError(mlc_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Appends "[d0,d1,...]" to buf (NUL-terminated, truncated to size).
void formatShape(char *buf, size_t size, const int64_t *shape, int32_t rank);

/// Checks a caller's tensor against its declaration; `kind` and `index` name
/// it in the message ("input 0 ('x'): ...").
mlc_status checkTensor(const TensorDesc &want, const mlc_tensor &got,
                       const char *kind, int32_t index);

/// Copies a declared tensor's name, dtype and shape into `info`.
void fillInfo(const TensorDesc &t, mlc_tensor_info *info);

/// Allocates a 64-byte aligned block of at least `bytes` (NULL for 0).
mlc_status allocateWorkspace(uint64_t bytes, void **out);

/// Whether two tensors' sizes and dtypes agree (names aside).
bool sameType(const TensorDesc &a, const TensorDesc &b);

/// One runtime-owned variable of a trainable model. Two copies: a step reads
/// the current one and writes the other, then the model flips `current`.
struct Variable {
  const TensorDesc *desc; // its line in the train signature
  mlc_variable_kind kind;
  void *copies[2];
};

/// Load-time setup of a trainable model (called by mlc_model_open once the
/// inference part is loaded): looks up the train/init families, cross-checks
/// the signatures, allocates the variables and runs init. Sets the error.
mlc_status setUpTraining(mlc_model *model);
void destroyTraining(mlc_model *model);

/// The function families of a model (model_abi.h), in kernel-table order.
enum class Family : uint8_t { Run, Train, Init };
constexpr int kNumFamilies = 3;

/// One kernel of a model's kernel tables (Profile.cpp).
struct KernelDesc {
  char *name;
  char *ops;
  Family family;
  uint64_t flops;
};

/// Profiling state of a model: the kernels of all families (run's, then
/// train's, then init's) and their counters.
struct Profile {
  bool hasTable; // the model.so exports at least one kernel table
  int32_t numKernels;
  KernelDesc *kernels;
  int32_t first[kNumFamilies], count[kNumFamilies];
  // Per kernel: total nanoseconds, calls. Updated atomically by the
  // model's runtime copy during profiled calls.
  uint64_t *counters;
  mlc_abi_set_profile_fn setProfile;
  int32_t on; // atomic: mlc_model_set_profiling
};

/// Parses a kernel table (model_abi.h: "<flops> <ops> <name>\n" lines) into
/// `out`, which has room for one entry per line. On failure, writes a
/// message into `err` and returns false; strings of entries already parsed
/// are the caller's to free.
bool parseKernelTable(const char *text, Family family, KernelDesc *out,
                      char *err, size_t errSize);

/// Reads the model's kernel tables (none is fine). Sets the error.
mlc_status loadProfile(mlc_model *model);
void freeProfile(mlc_model *model);

/// Brackets one call into the model: passes the thread-count setting to
/// the model's runtime copy for the calling thread and, while profiling is
/// on, the counters of `family`'s kernels (cleared again at the end).
class CallScope {
public:
  CallScope(const mlc_model *model, Family family);
  ~CallScope();
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

private:
  const mlc_model *model;
  bool profiled;
};

/// Sets the error and returns it unless `model` is a non-NULL trainable
/// model.
mlc_status requireTrainable(const mlc_model *model);

/// Shared/exclusive access to a trainable model's variables; no-ops for
/// plain models, which are immutable.
class ModelLock {
public:
  ~ModelLock();
  ModelLock(const ModelLock &) = delete;
  ModelLock &operator=(const ModelLock &) = delete;
  bool ok() const { return locked || !lock; }

protected:
  ModelLock(const mlc_model *model, bool exclusive);

private:
  pthread_rwlock_t *lock = nullptr;
  bool locked = false;
};
class ReadLock : public ModelLock {
public:
  explicit ReadLock(const mlc_model *model) : ModelLock(model, false) {}
};
class WriteLock : public ModelLock {
public:
  explicit WriteLock(mlc_model *model) : ModelLock(model, true) {}
};

} // namespace rt
} // namespace mlc

struct mlc_model {
  void *handle;
  char *path;
  mlc_model_entry_fn entry;
  uint64_t workspaceBytes;
  mlc::rt::Signature sig; // inference; its variable inputs come from us
  // The model.so's thread-count setter (NULL for models built before it)
  // and mlc_model_set_num_threads's value (0: default), atomic: runs on
  // other threads read it.
  mlc_abi_set_num_threads_fn setNumThreads;
  int32_t numThreads;
  // CUDA models only (NULL for CPU models): runs through the model's runtime
  // copy, which owns the context, kernels and device memory (Cuda.cpp).
  mlc_abi_cuda_run_fn cudaRun;

  // Trainable models only; zero otherwise.
  bool trainable;
  mlc::rt::Signature trainSig, initSig;
  mlc_model_entry_fn trainEntry, initEntry;
  uint64_t trainWorkspaceBytes, initWorkspaceBytes;
  void *trainWorkspace; // kept across steps: steps are exclusive
  int32_t numVariables;
  mlc::rt::Variable *variables;
  int32_t *inferVariables; // variable index of each variable input of sig
  int current;             // which copy of every variable is current
  bool lockReady;
  // mutable: readers (runs) lock a const model.
  mutable pthread_rwlock_t lock;
  // Kernel tables and counters (Profile.cpp).
  mlc::rt::Profile profile;
  // Workspaces of finished runs, reused by the next ones: a fresh
  // multi-megabyte allocation is fresh pages, and faulting them in cost
  // MobileNetV2 a tenth of its run time. Guarded by workspaceLock.
  static constexpr int kCachedWorkspaces = 4;
  mutable pthread_mutex_t workspaceLock;
  mutable void *cachedWorkspaces[kCachedWorkspaces];
};

#endif // MLC_RUNTIME_INTERNAL_H
