//===- Signature.cpp - parse a model's signature text ---------------------===//
//
// The signature comes from a file we just dlopen'ed, so it is untrusted:
// every malformed input must produce a message, never a crash or overflow.
//
//===----------------------------------------------------------------------===//

#include "Signature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace mlc::rt;

namespace {

void fail(char *err, size_t errSize, int line, const char *what,
          const char *tokenBegin = nullptr, size_t tokenLen = 0) {
  if (tokenBegin) {
    if (tokenLen > 40)
      tokenLen = 40;
    snprintf(err, errSize, "line %d: %s '%.*s'", line, what, int(tokenLen),
             tokenBegin);
  } else {
    snprintf(err, errSize, "line %d: %s", line, what);
  }
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Parses "[d0,d1,...]" starting at *p (which points at '['), bounded by
/// `end`. Spaces around dimensions are tolerated.
bool parseShape(const char *&p, const char *end, int64_t *dims, int32_t &rank,
                char *err, size_t errSize, int line) {
  if (p == end || *p != '[') {
    fail(err, errSize, line, "expected '[' starting the shape");
    return false;
  }
  ++p;
  rank = 0;
  auto skipSpaces = [&] {
    while (p != end && *p == ' ')
      ++p;
  };
  skipSpaces();
  if (p != end && *p == ']') {
    ++p;
    return true;
  }
  while (true) {
    skipSpaces();
    if (p == end || !isDigit(*p)) {
      fail(err, errSize, line, "expected a dimension in the shape");
      return false;
    }
    const char *begin = p;
    uint64_t value = 0;
    while (p != end && isDigit(*p)) {
      value = value * 10 + uint64_t(*p - '0');
      if (value > kMaxTensorBytes) {
        fail(err, errSize, line, "dimension too large", begin,
             size_t(p - begin + 1));
        return false;
      }
      ++p;
    }
    if (rank == kMaxRank) {
      fail(err, errSize, line, "rank exceeds 64");
      return false;
    }
    dims[rank++] = int64_t(value);
    skipSpaces();
    if (p != end && *p == ',') {
      ++p;
      continue;
    }
    if (p != end && *p == ']') {
      ++p;
      return true;
    }
    fail(err, errSize, line, "expected ',' or ']' in the shape");
    return false;
  }
}

/// Reads "<kind> " at p; variable kinds only when allowed.
bool parseKind(const char *&p, const char *lineEnd, bool allowVariables,
               LineKind &kind) {
  static const LineKind kKinds[] = {LineKind::In,    LineKind::Out,
                                    LineKind::Param, LineKind::Buffer,
                                    LineKind::State, LineKind::Update};
  for (LineKind k : kKinds) {
    if (!allowVariables && k != LineKind::In && k != LineKind::Out)
      continue;
    const char *name = lineKindName(k);
    size_t n = strlen(name);
    if (size_t(lineEnd - p) > n && strncmp(p, name, n) == 0 && p[n] == ' ') {
      p += n + 1;
      kind = k;
      return true;
    }
  }
  return false;
}

bool sameName(const TensorDesc &a, const TensorDesc &b) {
  return strcmp(a.name, b.name) == 0;
}

} // namespace

void mlc::rt::freeSignature(Signature *sig) {
  if (!sig || !sig->tensors)
    return;
  for (int32_t i = 0, e = sig->numInputs + sig->numOutputs; i < e; ++i) {
    free(sig->tensors[i].name);
    free(sig->tensors[i].shape);
  }
  free(sig->tensors);
  sig->tensors = nullptr;
  sig->numInputs = sig->numOutputs = sig->numVariableInputs = 0;
}

const char *mlc::rt::lineKindName(LineKind kind) {
  switch (kind) {
  case LineKind::Param:
    return "param";
  case LineKind::Buffer:
    return "buffer";
  case LineKind::State:
    return "state";
  case LineKind::In:
    return "in";
  case LineKind::Out:
    return "out";
  case LineKind::Update:
    return "update";
  }
  return "?";
}

bool mlc::rt::parseSignature(const char *text, Signature *sig, char *err,
                             size_t errSize, bool allowVariables) {
  if (!text) {
    snprintf(err, errSize, "signature is NULL");
    return false;
  }
  int32_t capacity = 0;
  int line = 0;
  LineKind lastKind = LineKind::Param;
  const char *p = text;
  while (*p) {
    ++line;
    const char *lineEnd = strchr(p, '\n');
    if (!lineEnd)
      lineEnd = p + strlen(p);

    // Kind (direction).
    LineKind kind;
    if (!parseKind(p, lineEnd, allowVariables, kind)) {
      if (allowVariables)
        fail(err, errSize, line,
             "expected 'in ', 'out ', 'param ', 'buffer ', 'state ' or "
             "'update ' but got",
             p, size_t(lineEnd - p));
      else if (const char *q = p; parseKind(q, lineEnd, true, kind))
        fail(err, errSize, line,
             "variable line in a model that is not trainable (it exports no "
             "mlc_train_entry):",
             p, size_t(lineEnd - p));
      else
        fail(err, errSize, line, "expected 'in ' or 'out ' but got", p,
             size_t(lineEnd - p));
      return false;
    }
    bool isInput = isInputKind(kind);
    if (isInput && sig->numOutputs > 0) {
      fail(err, errSize, line, "input declared after an output");
      return false;
    }
    // The ABI fixes the order: params, buffers, state, in; then out, update.
    if (kind < lastKind) {
      char what[160];
      snprintf(what, sizeof(what),
               "'%s' line after '%s' lines (the order is param, buffer, "
               "state, in, out, update)",
               lineKindName(kind), lineKindName(lastKind));
      fail(err, errSize, line, what);
      return false;
    }
    lastKind = kind;

    // Dtype.
    const char *dtypeBegin = p;
    while (p != lineEnd && *p != ' ')
      ++p;
    char dtypeName[16];
    size_t dtypeLen = size_t(p - dtypeBegin);
    mlc_dtype dtype = MLC_DTYPE_INVALID;
    if (dtypeLen < sizeof(dtypeName)) {
      memcpy(dtypeName, dtypeBegin, dtypeLen);
      dtypeName[dtypeLen] = '\0';
      dtype = mlc_dtype_from_name(dtypeName);
    }
    if (dtype == MLC_DTYPE_INVALID) {
      fail(err, errSize, line, "unknown dtype", dtypeBegin, dtypeLen);
      return false;
    }
    if (p == lineEnd) {
      fail(err, errSize, line, "expected a shape after the dtype");
      return false;
    }
    ++p;

    // Shape, with checked element and byte counts.
    int64_t dims[kMaxRank];
    int32_t rank = 0;
    if (!parseShape(p, lineEnd, dims, rank, err, errSize, line))
      return false;
    uint64_t numElements = 1;
    for (int32_t i = 0; i < rank; ++i) {
      if (__builtin_mul_overflow(numElements, uint64_t(dims[i]),
                                 &numElements) ||
          numElements > kMaxTensorBytes) {
        fail(err, errSize, line, "tensor size overflows");
        return false;
      }
    }
    uint64_t sizeBytes = numElements * mlc_dtype_size(dtype);
    if (sizeBytes > kMaxTensorBytes) {
      fail(err, errSize, line, "tensor size overflows");
      return false;
    }

    // Name: the rest of the line after exactly one space.
    if (p == lineEnd || *p != ' ' || p + 1 == lineEnd) {
      fail(err, errSize, line, "expected ' <name>' after the shape");
      return false;
    }
    ++p;
    size_t nameLen = size_t(lineEnd - p);

    if (sig->numInputs + sig->numOutputs == kMaxTensors) {
      fail(err, errSize, line, "too many tensors");
      return false;
    }
    if (sig->numInputs + sig->numOutputs == capacity) {
      int32_t newCapacity = capacity ? capacity * 2 : 8;
      void *grown =
          realloc(sig->tensors, size_t(newCapacity) * sizeof(TensorDesc));
      if (!grown) {
        snprintf(err, errSize, "out of memory");
        return false;
      }
      sig->tensors = static_cast<TensorDesc *>(grown);
      capacity = newCapacity;
    }
    TensorDesc &t = sig->tensors[sig->numInputs + sig->numOutputs];
    t.name = static_cast<char *>(malloc(nameLen + 1));
    t.shape =
        rank ? static_cast<int64_t *>(malloc(sizeof(int64_t) * rank)) : nullptr;
    t.kind = kind;
    t.dtype = dtype;
    t.rank = rank;
    t.numElements = numElements;
    t.sizeBytes = sizeBytes;
    // Count the entry before checking the allocations so it gets freed.
    if (isInput)
      ++sig->numInputs;
    if (isVariableKind(kind))
      ++sig->numVariableInputs;
    if (!isInput)
      ++sig->numOutputs;
    if (!t.name || (rank && !t.shape)) {
      snprintf(err, errSize, "out of memory");
      return false;
    }
    memcpy(t.name, p, nameLen);
    t.name[nameLen] = '\0';
    if (rank)
      memcpy(t.shape, dims, sizeof(int64_t) * rank);

    // Names must be unique among inputs and among outputs (an output may
    // share its name with the input it forwards).
    int32_t first = isInput ? 0 : sig->numInputs;
    int32_t self = sig->numInputs + sig->numOutputs - 1;
    for (int32_t i = first; i < self; ++i) {
      if (sameName(sig->tensors[i], t)) {
        fail(err, errSize, line,
             isInput ? "duplicate input name" : "duplicate output name", t.name,
             nameLen);
        return false;
      }
    }

    p = *lineEnd ? lineEnd + 1 : lineEnd;
  }
  if (sig->numOutputs == 0) {
    snprintf(err, errSize, "the model declares no outputs");
    return false;
  }
  return true;
}
