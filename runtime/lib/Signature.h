//===- Signature.h - a model's parsed signature -----------------*- C++ -*-===//
//
// The tensors a model function takes and returns, parsed from the signature
// text of mlc/model_abi.h (Signature.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_SIGNATURE_H
#define MLC_RUNTIME_SIGNATURE_H

#include "mlc/runtime.h"

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

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_SIGNATURE_H
