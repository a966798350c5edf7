//===- EvaluatorSupport.h - the evaluator's scalar semantics ------*- C++
//-*-===//
//
// Shared by the evaluator's files (Evaluator.cpp: ops to kernels;
// EvaluateKernels.cpp: reductions, contractions, windows, data movement;
// HostTensor.cpp: storage and ElementsAttr conversion): each op's scalar
// formula as the lowered linalg.generic bodies compute it, element-kind
// dispatch and the iteration helpers. Internal to lib/Dialect/Graph.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_DIALECT_GRAPH_EVALUATORSUPPORT_H
#define MLC_LIB_DIALECT_GRAPH_EVALUATORSUPPORT_H

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <math.h>

namespace mlc::graph::detail {

using namespace mlir;

inline LogicalResult fail(std::string *error, const Twine &message) {
  if (error)
    *error = message.str();
  return failure();
}

inline std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

template <typename T> constexpr bool kIsFloat = std::is_same_v<T, float>;
template <typename T> using Unsigned = std::make_unsigned_t<T>;

// Integer add/sub/mul/neg wrap (arith ops without overflow flags).
template <typename T> T addS(T a, T b) {
  if constexpr (kIsFloat<T>)
    return a + b;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(a) +
                          static_cast<Unsigned<T>>(b));
}
template <typename T> T subS(T a, T b) {
  if constexpr (kIsFloat<T>)
    return a - b;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(a) -
                          static_cast<Unsigned<T>>(b));
}
template <typename T> T mulS(T a, T b) {
  if constexpr (kIsFloat<T>)
    return a * b;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(a) *
                          static_cast<Unsigned<T>>(b));
}
template <typename T> T negS(T a) {
  if constexpr (kIsFloat<T>)
    return -a;
  else
    return subS<T>(0, a);
}
// Integer division: x / 0 = 0 and INT_MIN / -1 = INT_MIN (see lowerDiv).
template <typename T> T divS(T a, T b) {
  if constexpr (kIsFloat<T>) {
    return a / b;
  } else {
    if (b == 0)
      return 0;
    if (b == -1)
      return negS(a);
    return a / b;
  }
}
// lowerFmod / lowerFloorMod: fmodf for floats; integer x mod 0 and x mod -1
// are 0; floor modulo moves a remainder of the wrong sign by one divisor.
template <typename T> T modS(T a, T b, bool fmod) {
  if constexpr (kIsFloat<T>) {
    return fmodf(a, b);
  } else {
    if (b == 0 || b == -1)
      return 0;
    T r = a % b;
    if (!fmod && r != 0 && (r < 0) != (b < 0))
      r += b;
    return r;
  }
}
// lowerPow: powf, or square-and-multiply with wrapping products over the
// exponent's width - 1 low bits; negative exponents as documented.
template <typename T> T powS(T base, T exp) {
  if constexpr (kIsFloat<T>) {
    return powf(base, exp);
  } else {
    if (exp < 0)
      return base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
    T result = 1;
    for (unsigned k = 0; k + 1 < sizeof(T) * 8; ++k, exp >>= 1) {
      if (exp & 1)
        result = mulS(result, base);
      base = mulS(base, base);
    }
    return result;
  }
}
// arith.maximumf/minimumf: NaN propagates, and +0 > -0.
template <typename T> T maxS(T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}
template <typename T> T minS(T a, T b) {
  if constexpr (kIsFloat<T>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}
template <typename T> T absS(T a) {
  if constexpr (kIsFloat<T>)
    return fabsf(a);
  else
    return a < 0 ? negS(a) : a; // math.absi: INT_MIN stays INT_MIN
}

// lowerSign: numpy's sign; +0.0 for both zeros, NaN stays NaN.
template <typename T> T signS(T a) {
  if (a > 0)
    return 1;
  if (a < 0)
    return static_cast<T>(-1);
  if constexpr (kIsFloat<T>)
    return std::isnan(a) ? a : 0.0f;
  else
    return 0;
}

// math.rsqrt lowers to 1 / sqrt (convert-math-to-llvm).
inline float rsqrtF(float x) { return 1.0f / sqrtf(x); }
inline float sigmoidF(float x) { return 1.0f / (1.0f + expf(-x)); }
// The lowering's constants are doubles rounded to f32.
const float kSqrtHalf = static_cast<float>(M_SQRT1_2);
const float kGeluTanhScale = static_cast<float>(std::sqrt(2.0 / M_PI));
const float kGeluTanhCoeff = static_cast<float>(0.044715);
inline float geluErfF(float x) {
  return (0.5f * x) * (1.0f + erff(x * kSqrtHalf));
}
inline float geluTanhF(float x) {
  float x3 = (x * x) * x;
  float inner = x + kGeluTanhCoeff * x3;
  return (0.5f * x) * (1.0f + tanhf(kGeluTanhScale * inner));
}

// fptosi of NaN or an out-of-range value is poison in LLVM; x86 (cvttss2si)
// gives the type's minimum, and so does this.
template <typename To> To floatToInt(float x) {
  const float limit = -static_cast<float>(std::numeric_limits<To>::min());
  if (x >= -limit && x < limit)
    return static_cast<To>(x);
  return std::numeric_limits<To>::min();
}

/// The scalar conversion of graph.cast (see convertScalar).
template <typename To, typename From> To convertS(From x) {
  if constexpr (std::is_same_v<To, From>)
    return x;
  else if constexpr (std::is_same_v<To, uint8_t>)
    return x != 0; // float: UNE, so NaN -> true
  else if constexpr (std::is_same_v<From, uint8_t>)
    return static_cast<To>(x);
  else if constexpr (kIsFloat<From>)
    return floatToInt<To>(x);
  else if constexpr (kIsFloat<To>)
    return static_cast<float>(x); // sitofp, round to nearest
  else
    return static_cast<To>(x); // sext, or trunc keeping the low bits
}

template <typename T> bool compareS(ComparePredicate p, T a, T b) {
  // C++ float comparisons are ordered (false on NaN) except !=, exactly as
  // the lowering's OEQ/OLT/OLE/OGT/OGE and UNE.
  switch (p) {
  case ComparePredicate::eq:
    return a == b;
  case ComparePredicate::ne:
    return a != b;
  case ComparePredicate::lt:
    return a < b;
  case ComparePredicate::le:
    return a <= b;
  case ComparePredicate::gt:
    return a > b;
  case ComparePredicate::ge:
    return a >= b;
  }
  llvm_unreachable("unknown predicate");
}

//===----------------------------------------------------------------------===//
// Iteration helpers
//===----------------------------------------------------------------------===//

template <typename T> struct Tag { using type = T; };

/// Calls fn(Tag<T>{}) with T the storage type of `kind`.
template <typename Fn> decltype(auto) dispatchAll(ElementKind kind, Fn &&fn) {
  switch (kind) {
  case ElementKind::F32:
    return fn(Tag<float>{});
  case ElementKind::I64:
    return fn(Tag<int64_t>{});
  case ElementKind::I32:
    return fn(Tag<int32_t>{});
  case ElementKind::I1:
    return fn(Tag<uint8_t>{});
  case ElementKind::I8:
    return fn(Tag<int8_t>{});
  case ElementKind::U8:
    // Shares uint8_t with I1: only data movement and the 8-bit aware
    // kernels (cast, EvaluateQuant.cpp) see U8 (ODS keeps ui8 from the rest).
    return fn(Tag<uint8_t>{});
  }
  llvm_unreachable("unknown element kind");
}

/// As dispatchAll for the numeric kinds; ODS constraints keep i1 away.
template <typename Fn>
decltype(auto) dispatchNumeric(ElementKind kind, Fn &&fn) {
  if (kind == ElementKind::I1 || kind == ElementKind::U8)
    llvm::report_fatal_error(
        "graph evaluator: numeric op on an i1 or ui8 tensor");
  return dispatchAll(kind, std::forward<Fn>(fn));
}

inline int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

inline SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Walks `space` in row-major order and calls f(linearIndex, offsets), where
/// offsets[i] = bases[i] + sum_d index[d] * strides[i][d].
template <typename F>
void walk(ArrayRef<int64_t> space, ArrayRef<SmallVector<int64_t>> strides,
          ArrayRef<int64_t> bases, F &&f) {
  int64_t rank = space.size(), n = product(space);
  size_t k = strides.size();
  SmallVector<int64_t> index(rank, 0), offsets(bases.begin(), bases.end());
  for (int64_t linear = 0; linear < n; ++linear) {
    f(linear, ArrayRef<int64_t>(offsets));
    for (int64_t d = rank - 1; d >= 0; --d) {
      for (size_t i = 0; i < k; ++i)
        offsets[i] += strides[i][d];
      if (++index[d] < space[d])
        break;
      for (size_t i = 0; i < k; ++i)
        offsets[i] -= strides[i][d] * space[d];
      index[d] = 0;
    }
  }
}

/// Strides that read an operand of `shape` numpy-broadcast to `outShape`
/// (size-1 and missing leading dims get stride 0).
inline SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> outShape) {
  SmallVector<int64_t> strides(outShape.size(), 0);
  SmallVector<int64_t> own = rowMajorStrides(shape);
  size_t offset = outShape.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    strides[offset + d] = shape[d] == 1 ? 0 : own[d];
  return strides;
}

/// Calls f(outIndex, operandOffsets) for each element of `outShape`.
template <typename F>
void forEachBroadcast(ArrayRef<int64_t> outShape,
                      ArrayRef<const HostTensor *> operands, F &&f) {
  SmallVector<SmallVector<int64_t>> strides;
  for (const HostTensor *t : operands)
    strides.push_back(broadcastStrides(t->getShape(), outShape));
  SmallVector<int64_t> bases(operands.size(), 0);
  walk(outShape, strides, bases, f);
}

template <typename R, typename A, typename F>
HostTensor mapUnary(const HostTensor &a, ElementKind outKind, F &&f) {
  HostTensor out(outKind, a.getShape());
  auto in = a.values<A>();
  auto dst = out.values<R>();
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    dst[i] = f(in[i]);
  return out;
}

template <typename R, typename A, typename B, typename F>
HostTensor mapBinary(const HostTensor &a, const HostTensor &b,
                     ArrayRef<int64_t> outShape, ElementKind outKind, F &&f) {
  HostTensor out(outKind, outShape);
  auto av = a.values<A>();
  auto bv = b.values<B>();
  auto dst = out.values<R>();
  forEachBroadcast(outShape, {&a, &b}, [&](int64_t i, ArrayRef<int64_t> off) {
    dst[i] = f(av[off[0]], bv[off[1]]);
  });
  return out;
}

/// A numeric binary op whose result has the operands' element type; `fn` is
/// a generic lambda on scalars.
template <typename Fn>
HostTensor binaryNumeric(const HostTensor &a, const HostTensor &b,
                         ArrayRef<int64_t> outShape, Fn &&fn) {
  return dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return mapBinary<T, T, T>(a, b, outShape, a.getKind(),
                              [&](T x, T y) { return fn(x, y); });
  });
}

template <typename Fn> HostTensor unaryNumeric(const HostTensor &a, Fn &&fn) {
  return dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return mapUnary<T, T>(a, a.getKind(), [&](T x) { return fn(x); });
  });
}

inline HostTensor unaryFloat(const HostTensor &a, float (*fn)(float)) {
  return mapUnary<float, float>(a, ElementKind::F32, fn);
}

enum class Reduce { Sum, Max, Min, Prod };

// Kernels of EvaluateKernels.cpp.
HostTensor reduce(const HostTensor &in, ArrayRef<int64_t> axes, Reduce kind);

HostTensor argReduce(const HostTensor &in, int64_t axis, bool isMax, bool last);

HostTensor cumsum(const HostTensor &in, int64_t axis, bool exclusive,
                  bool reverse);

HostTensor withShape(HostTensor t, ArrayRef<int64_t> shape);

HostTensor divideBy(const HostTensor &t, double divisor);

int64_t countOver(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes);

HostTensor subF(const HostTensor &a, const HostTensor &b);

HostTensor softmax(const HostTensor &x, int64_t axis, bool log);

HostTensor layerNorm(const HostTensor &x, const HostTensor &scale,
                     const HostTensor &bias, int64_t axis, float eps);

HostTensor batchNorm(ArrayRef<HostTensor> in, float eps);

HostTensor matmul(const HostTensor &a, const HostTensor &b,
                  ArrayRef<int64_t> outShape);

HostTensor conv2d(Conv2DOp op, ArrayRef<HostTensor> in,
                  ArrayRef<int64_t> outShape);

HostTensor pool(const HostTensor &x, ArrayRef<int64_t> outShape,
                ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                ArrayRef<int64_t> d, bool isMax);

HostTensor avgPool(AvgPool2DOp op, const HostTensor &x,
                   ArrayRef<int64_t> outShape);

HostTensor transpose(const HostTensor &x, ArrayRef<int64_t> perm,
                     ArrayRef<int64_t> outShape);

HostTensor slice(SliceOp op, const HostTensor &x, ArrayRef<int64_t> outShape);

HostTensor concat(ArrayRef<HostTensor> in, int64_t axis,
                  ArrayRef<int64_t> outShape);

HostTensor gather(const HostTensor &data, const HostTensor &indices,
                  int64_t axis, ArrayRef<int64_t> outShape);

HostTensor gatherElements(const HostTensor &data, const HostTensor &indices,
                          int64_t axis);

HostTensor pad(PadOp op, const HostTensor &x, ArrayRef<int64_t> outShape);

HostTensor broadcastTo(const HostTensor &x, ArrayRef<int64_t> outShape);

HostTensor select(ArrayRef<HostTensor> in, ArrayRef<int64_t> outShape);

HostTensor cast(const HostTensor &x, ElementKind to);

/// conv2d of i32 tensors holding x - x_zp and w - w_zp (zero padding).
HostTensor conv2dCentered(const HostTensor &x, const HostTensor &w,
                          ArrayRef<int64_t> outShape, int64_t groups,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> dilations);

// EvaluateQuant.cpp: the quantization ops and integer contractions.
HostTensor quantize(const HostTensor &x, const HostTensor &scale,
                    const HostTensor &zp, ElementKind to);
HostTensor dequantize(const HostTensor &x, const HostTensor &scale,
                      const HostTensor &zp);
HostTensor fakeQuantize(const HostTensor &x, const HostTensor &scale,
                        const HostTensor &zp);
/// `x - zp` in i32, zp broadcast to x's shape.
HostTensor centered(const HostTensor &x, const HostTensor &zp);

} // namespace mlc::graph::detail

#endif
