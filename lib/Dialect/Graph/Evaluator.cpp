//===- Evaluator.cpp - reference evaluation of graph ops ------------------===//
//
// Every kernel here mirrors one pattern of lib/Conversion/GraphToLinalg: the
// same accumulator type and initial value, reductions in row-major order of
// the reduced dims, the same scalar formula with the same float roundings and
// the same libm function. This file is compiled with -ffp-contract=off: the
// lowered kernels use separate mulf/addf without the contract flag, so a
// fused multiply-add here would differ in the last bit.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Evaluator.h"
#include "EvaluateBlocked.h"
#include "EvaluateUpsampling.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <math.h>

using namespace mlir;
using namespace mlc::graph;

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

std::optional<ElementKind> mlc::graph::getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isSignlessInteger(64))
    return ElementKind::I64;
  if (type.isSignlessInteger(32))
    return ElementKind::I32;
  if (type.isSignlessInteger(1))
    return ElementKind::I1;
  return std::nullopt;
}

Type mlc::graph::getElementType(MLIRContext *ctx, ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return Float32Type::get(ctx);
  case ElementKind::I64:
    return IntegerType::get(ctx, 64);
  case ElementKind::I32:
    return IntegerType::get(ctx, 32);
  case ElementKind::I1:
    return IntegerType::get(ctx, 1);
  }
  llvm_unreachable("unknown element kind");
}

int64_t mlc::graph::getElementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::I64:
    return 8;
  case ElementKind::I1:
    return 1;
  }
  llvm_unreachable("unknown element kind");
}

HostTensor::HostTensor(ElementKind kind, ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()) {
  numElements = 1;
  for (int64_t d : shape)
    numElements *= d;
  switch (kind) {
  case ElementKind::F32:
    f32.assign(numElements, 0.0f);
    break;
  case ElementKind::I64:
    i64.assign(numElements, 0);
    break;
  case ElementKind::I32:
    i32.assign(numElements, 0);
    break;
  case ElementKind::I1:
    i1.assign(numElements, 0);
    break;
  }
}

RankedTensorType HostTensor::getType(MLIRContext *ctx) const {
  return RankedTensorType::get(shape, getElementType(ctx, kind));
}

MutableArrayRef<char> HostTensor::getMutableBytes() {
  char *data = nullptr;
  switch (kind) {
  case ElementKind::F32:
    data = reinterpret_cast<char *>(f32.data());
    break;
  case ElementKind::I64:
    data = reinterpret_cast<char *>(i64.data());
    break;
  case ElementKind::I32:
    data = reinterpret_cast<char *>(i32.data());
    break;
  case ElementKind::I1:
    data = reinterpret_cast<char *>(i1.data());
    break;
  }
  return MutableArrayRef<char>(data, getSizeInBytes());
}

ArrayRef<char> HostTensor::getBytes() const {
  return const_cast<HostTensor *>(this)->getMutableBytes();
}

bool HostTensor::bitwiseEquals(const HostTensor &other) const {
  return kind == other.kind && shape == other.shape &&
         getBytes() == other.getBytes();
}

//===----------------------------------------------------------------------===//
// ElementsAttr conversion
//===----------------------------------------------------------------------===//

namespace {

LogicalResult fail(std::string *error, const Twine &message) {
  if (error)
    *error = message.str();
  return failure();
}

std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

template <typename T, typename Range>
void copyValues(HostTensor &t, Range &&range) {
  auto dst = t.values<T>();
  int64_t i = 0;
  for (auto v : range)
    dst[i++] = static_cast<T>(v);
}

} // namespace

FailureOr<HostTensor> mlc::graph::fromElementsAttr(ElementsAttr attr,
                                                   std::string *error) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape())
    return fail(error, "constant of type " + typeStr(attr.getType()) +
                           " is not a statically shaped tensor");
  std::optional<ElementKind> kind = getElementKind(type.getElementType());
  if (!kind)
    return fail(error, "unsupported constant element type " +
                           typeStr(type.getElementType()));
  HostTensor t(*kind, type.getShape());

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    switch (*kind) {
    case ElementKind::F32:
      copyValues<float>(t, dense.getValues<float>());
      break;
    case ElementKind::I64:
      copyValues<int64_t>(t, dense.getValues<int64_t>());
      break;
    case ElementKind::I32:
      copyValues<int32_t>(t, dense.getValues<int32_t>());
      break;
    case ElementKind::I1:
      copyValues<uint8_t>(t, dense.getValues<bool>());
      break;
    }
    return t;
  }

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return fail(error, "dense_resource blob '" +
                             resource.getRawHandle().getKey() +
                             "' has no data (elided?)");
    ArrayRef<char> data = blob->getData();
    if ((int64_t)data.size() != t.getSizeInBytes())
      return fail(error, "dense_resource blob '" +
                             resource.getRawHandle().getKey() + "' holds " +
                             Twine(data.size()) + " bytes, " + typeStr(type) +
                             " needs " + Twine(t.getSizeInBytes()));
    if (*kind == ElementKind::I1) {
      // One byte per bool; normalize to 0/1.
      auto dst = t.values<uint8_t>();
      for (int64_t i = 0, e = t.getNumElements(); i < e; ++i)
        dst[i] = data[i] != 0;
    } else if (!data.empty()) {
      std::memcpy(t.getMutableBytes().data(), data.data(), data.size());
    }
    return t;
  }

  // Other ElementsAttr implementations, through their APFloat/APInt values.
  if (*kind == ElementKind::F32) {
    if (auto values = attr.tryGetValues<APFloat>()) {
      auto dst = t.values<float>();
      int64_t i = 0;
      for (APFloat v : *values)
        dst[i++] = v.convertToFloat();
      return t;
    }
  } else if (auto values = attr.tryGetValues<APInt>()) {
    int64_t i = 0;
    for (APInt v : *values) {
      switch (*kind) {
      case ElementKind::I64:
        t.values<int64_t>()[i] = v.getSExtValue();
        break;
      case ElementKind::I32:
        t.values<int32_t>()[i] = static_cast<int32_t>(v.getSExtValue());
        break;
      default:
        t.values<uint8_t>()[i] = !v.isZero();
        break;
      }
      ++i;
    }
    return t;
  }
  return fail(error, "cannot read the values of this constant attribute");
}

namespace {
template <typename T> bool isSplat(ArrayRef<T> values) {
  // Bitwise, so that -0 and +0 (or NaN payloads) are not merged.
  for (const T &v : values)
    if (std::memcmp(&v, &values[0], sizeof(T)) != 0)
      return false;
  return true;
}

template <typename T>
ElementsAttr toDenseOrBlob(RankedTensorType type, ArrayRef<T> values,
                           StringRef blobName) {
  if (!values.empty() && isSplat(values))
    return DenseElementsAttr::get(type, values.front());
  if ((int64_t)values.size() <= kMaxDenseAttrElements)
    return DenseElementsAttr::get(type, values);
  return DenseResourceElementsAttr::get(
      type, blobName, HeapAsmResourceBlob::allocateAndCopyInferAlign(values));
}
} // namespace

ElementsAttr mlc::graph::toElementsAttr(MLIRContext *ctx,
                                        const HostTensor &tensor,
                                        StringRef blobName) {
  RankedTensorType type = tensor.getType(ctx);
  switch (tensor.getKind()) {
  case ElementKind::F32:
    return toDenseOrBlob(type, tensor.values<float>(), blobName);
  case ElementKind::I64:
    return toDenseOrBlob(type, tensor.values<int64_t>(), blobName);
  case ElementKind::I32:
    return toDenseOrBlob(type, tensor.values<int32_t>(), blobName);
  case ElementKind::I1: {
    // i1 blobs have no agreed byte layout (as in the importer): always dense.
    SmallVector<bool> bits(tensor.values<uint8_t>().begin(),
                           tensor.values<uint8_t>().end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  }
  llvm_unreachable("unknown element kind");
}

//===----------------------------------------------------------------------===//
// Scalar semantics (the bodies of the lowered linalg.generic ops)
//===----------------------------------------------------------------------===//

namespace {

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
float rsqrtF(float x) { return 1.0f / sqrtf(x); }
float sigmoidF(float x) { return 1.0f / (1.0f + expf(-x)); }
// The lowering's constants are doubles rounded to f32.
const float kSqrtHalf = static_cast<float>(M_SQRT1_2);
const float kGeluTanhScale = static_cast<float>(std::sqrt(2.0 / M_PI));
const float kGeluTanhCoeff = static_cast<float>(0.044715);
float geluErfF(float x) { return (0.5f * x) * (1.0f + erff(x * kSqrtHalf)); }
float geluTanhF(float x) {
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
  }
  llvm_unreachable("unknown element kind");
}

/// As dispatchAll for the numeric kinds; ODS constraints keep i1 away.
template <typename Fn>
decltype(auto) dispatchNumeric(ElementKind kind, Fn &&fn) {
  if (kind == ElementKind::I1)
    llvm::report_fatal_error("graph evaluator: numeric op on an i1 tensor");
  return dispatchAll(kind, std::forward<Fn>(fn));
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
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
SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> shape,
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

HostTensor unaryFloat(const HostTensor &a, float (*fn)(float)) {
  return mapUnary<float, float>(a, ElementKind::F32, fn);
}

//===----------------------------------------------------------------------===//
// Reductions and row-wise ops
//===----------------------------------------------------------------------===//

enum class Reduce { Sum, Max, Min, Prod };

/// buildReduction: per kept index, acc = init then acc = acc (+|max) x over
/// the reduced dims in row-major order. Walking the input in row-major order
/// visits each output's elements in exactly that order. The result has
/// size-1 dims at the reduced axes (the keepdims layout; dropping them does
/// not change the element order).
HostTensor reduce(const HostTensor &in, ArrayRef<int64_t> axes, Reduce kind) {
  SmallVector<int64_t> outShape(in.getShape());
  for (int64_t a : axes)
    outShape[a] = 1;
  HostTensor out(in.getKind(), outShape);
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Limits = std::numeric_limits<T>;
    T init = 0;
    if (kind == Reduce::Prod)
      init = 1;
    if constexpr (kIsFloat<T>) {
      if (kind == Reduce::Max || kind == Reduce::Min)
        init = kind == Reduce::Max ? -Limits::infinity() : Limits::infinity();
    } else {
      if (kind == Reduce::Max || kind == Reduce::Min)
        init = kind == Reduce::Max ? Limits::min() : Limits::max();
    }
    auto dst = out.values<T>();
    std::fill(dst.begin(), dst.end(), init);
    auto src = in.values<T>();
    SmallVector<SmallVector<int64_t>> strides = {
        broadcastStrides(outShape, in.getShape())};
    walk(in.getShape(), strides, {0}, [&](int64_t i, ArrayRef<int64_t> off) {
      T &acc = dst[off[0]];
      switch (kind) {
      case Reduce::Sum:
        acc = addS(acc, src[i]);
        break;
      case Reduce::Prod:
        acc = mulS(acc, src[i]);
        break;
      case Reduce::Max:
        acc = maxS(acc, src[i]);
        break;
      case Reduce::Min:
        acc = minS(acc, src[i]);
        break;
      }
    });
  });
  return out;
}

/// ArgReducePattern's update rule: does x replace the accumulator?
template <typename T> bool argTakes(T x, T acc, bool isMax, bool last) {
  // C++ comparisons are ordered (false on NaN), like OGT/OGE/OLT/OLE.
  bool better =
      isMax ? (last ? x >= acc : x > acc) : (last ? x <= acc : x < acc);
  if constexpr (kIsFloat<T>) {
    bool xNaN = std::isnan(x), accNaN = std::isnan(acc);
    return (last ? xNaN : xNaN && !accNaN) || better;
  }
  return better;
}

/// argmax/argmin over `axis`, in the keepdims layout: the accumulator
/// starts at -inf/+inf (integer min/max) with index 0, and each element of
/// a row is offered in order.
HostTensor argReduce(const HostTensor &in, int64_t axis, bool isMax,
                     bool last) {
  SmallVector<int64_t> outShape(in.getShape());
  outShape[axis] = 1;
  HostTensor out(ElementKind::I64, outShape);
  auto dst = out.values<int64_t>();
  int64_t inner = product(in.getShape().drop_front(axis + 1));
  int64_t size = in.getShape()[axis];
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Limits = std::numeric_limits<T>;
    T init;
    if constexpr (kIsFloat<T>)
      init = isMax ? -Limits::infinity() : Limits::infinity();
    else
      init = isMax ? Limits::min() : Limits::max();
    SmallVector<T> acc(out.getNumElements(), init);
    auto src = in.values<T>();
    SmallVector<SmallVector<int64_t>> strides = {
        broadcastStrides(outShape, in.getShape())};
    walk(in.getShape(), strides, {0}, [&](int64_t i, ArrayRef<int64_t> off) {
      if (argTakes(src[i], acc[off[0]], isMax, last)) {
        acc[off[0]] = src[i];
        dst[off[0]] = (i / inner) % size;
      }
    });
  });
  return out;
}

/// CumSumPattern: out[.., i, ..] = 0 (+ in[.., j, ..] for each selected j,
/// in increasing j).
HostTensor cumsum(const HostTensor &in, int64_t axis, bool exclusive,
                  bool reverse) {
  HostTensor out(in.getKind(), in.getShape());
  auto shape = in.getShape();
  int64_t outer = product(shape.take_front(axis)), n = shape[axis];
  int64_t inner = product(shape.drop_front(axis + 1));
  auto selected = [&](int64_t j, int64_t i) {
    return reverse ? (exclusive ? j > i : j >= i)
                   : (exclusive ? j < i : j <= i);
  };
  dispatchNumeric(in.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = in.values<T>();
    auto dst = out.values<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < inner; ++k) {
          T acc = 0;
          for (int64_t j = 0; j < n; ++j)
            if (selected(j, i))
              acc = addS(acc, src[(o * n + j) * inner + k]);
          dst[(o * n + i) * inner + k] = acc;
        }
  });
  return out;
}

HostTensor withShape(HostTensor t, ArrayRef<int64_t> shape) {
  HostTensor out(t.getKind(), shape);
  std::memcpy(out.getMutableBytes().data(), t.getBytes().data(),
              t.getSizeInBytes());
  return out;
}

/// divideByConstant: x / (float)divisor.
HostTensor divideBy(const HostTensor &t, double divisor) {
  float d = static_cast<float>(divisor);
  return mapUnary<float, float>(t, ElementKind::F32,
                                [&](float x) { return x / d; });
}

int64_t countOver(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes) {
  int64_t n = 1;
  for (int64_t a : axes)
    n *= shape[a];
  return n;
}

HostTensor subF(const HostTensor &a, const HostTensor &b) {
  return mapBinary<float, float, float>(a, b, a.getShape(), ElementKind::F32,
                                        [](float x, float y) { return x - y; });
}

HostTensor softmax(const HostTensor &x, int64_t axis, bool log) {
  HostTensor max = reduce(x, axis, Reduce::Max);
  HostTensor shifted = subF(x, max);
  HostTensor e = unaryFloat(shifted, [](float v) { return expf(v); });
  HostTensor sum = reduce(e, axis, Reduce::Sum);
  if (log)
    return mapBinary<float, float, float>(
        shifted, sum, x.getShape(), ElementKind::F32,
        [](float s, float t) { return s - logf(t); });
  return mapBinary<float, float, float>(e, sum, x.getShape(), ElementKind::F32,
                                        [](float v, float t) { return v / t; });
}

HostTensor layerNorm(const HostTensor &x, const HostTensor &scale,
                     const HostTensor &bias, int64_t axis, float eps) {
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < x.getRank(); ++d)
    axes.push_back(d);
  double count = countOver(x.getShape(), axes);
  HostTensor mean = divideBy(reduce(x, axes, Reduce::Sum), count);
  HostTensor centered = subF(x, mean);
  HostTensor sq = unaryFloat(centered, [](float v) { return v * v; });
  HostTensor var = divideBy(reduce(sq, axes, Reduce::Sum), count);
  HostTensor out(ElementKind::F32, x.getShape());
  ArrayRef<float> c = centered.values<float>(), v = var.values<float>(),
                  s = scale.values<float>(), b = bias.values<float>();
  auto dst = out.values<float>();
  forEachBroadcast(x.getShape(), {&centered, &var, &scale, &bias},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     float inv = rsqrtF(v[off[1]] + eps);
                     float n = c[off[0]] * inv;
                     dst[i] = n * s[off[2]] + b[off[3]];
                   });
  return out;
}

HostTensor batchNorm(ArrayRef<HostTensor> in, float eps) {
  const HostTensor &x = in[0];
  // Per-channel params [C] -> [C, 1, ..., 1], broadcast along axis 1.
  SmallVector<int64_t> paramShape(x.getRank() - 1, 1);
  paramShape[0] = x.getShape()[1];
  SmallVector<HostTensor> p;
  for (int i = 1; i < 5; ++i)
    p.push_back(withShape(in[i], paramShape));
  HostTensor out(ElementKind::F32, x.getShape());
  ArrayRef<float> xv = x.values<float>(), scale = p[0].values<float>(),
                  bias = p[1].values<float>(), mean = p[2].values<float>(),
                  var = p[3].values<float>();
  auto dst = out.values<float>();
  forEachBroadcast(x.getShape(), {&x, &p[0], &p[1], &p[2], &p[3]},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     float inv = rsqrtF(var[off[4]] + eps);
                     float n = (xv[off[0]] - mean[off[3]]) * inv;
                     dst[i] = n * scale[off[1]] + bias[off[2]];
                   });
  return out;
}

//===----------------------------------------------------------------------===//
// Contractions and windows
//===----------------------------------------------------------------------===//

HostTensor matmul(const HostTensor &a, const HostTensor &b,
                  ArrayRef<int64_t> outShape) {
  int64_t outRank = outShape.size();
  int64_t m = outShape[outRank - 2], n = outShape[outRank - 1];
  int64_t k = a.getShape().back();
  HostTensor out(a.getKind(), outShape);
  ArrayRef<int64_t> batch = outShape.drop_back(2);
  SmallVector<SmallVector<int64_t>> strides = {
      broadcastStrides(a.getShape().drop_back(2), batch),
      broadcastStrides(b.getShape().drop_back(2), batch)};
  dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto av = a.values<T>(), bv = b.values<T>();
    auto dst = out.values<T>();
    walk(batch, strides, {0, 0}, [&](int64_t bi, ArrayRef<int64_t> off) {
      const T *lhs = av.data() + off[0] * m * k;
      const T *rhs = bv.data() + off[1] * k * n;
      T *res = dst.data() + bi * m * n;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          T acc = 0;
          for (int64_t p = 0; p < k; ++p)
            acc = addS(acc, mulS(lhs[i * k + p], rhs[p * n + j]));
          res[i * n + j] = acc;
        }
    });
  });
  return out;
}

HostTensor conv2d(Conv2DOp op, ArrayRef<HostTensor> in,
                  ArrayRef<int64_t> outShape) {
  const HostTensor &x = in[0], &w = in[1];
  auto xs = x.getShape(), ws = w.getShape();
  int64_t batch = xs[0], channels = xs[1], h = xs[2], wd = xs[3];
  int64_t outC = ws[0], groupC = ws[1], kh = ws[2], kw = ws[3];
  int64_t oh = outShape[2], ow = outShape[3];
  int64_t groups = op.getGroups(), groupO = outC / groups;
  auto s = op.getStrides(), p = op.getPads(), d = op.getDilations();
  auto xv = x.values<float>(), wv = w.values<float>();
  const float *bias = in.size() > 2 ? in[2].values<float>().data() : nullptr;
  HostTensor out(ElementKind::F32, outShape);
  auto dst = out.values<float>();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < outC; ++o) {
      int64_t g = o / groupO;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          float acc = bias ? bias[o] : 0.0f;
          for (int64_t c = 0; c < groupC; ++c)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                // Padding is a real 0 in the kernel: 0 * inf is NaN there too.
                int64_t iy = y * s[0] + i * d[0] - p[0];
                int64_t iz = z * s[1] + j * d[1] - p[1];
                float v = 0.0f;
                if (iy >= 0 && iy < h && iz >= 0 && iz < wd)
                  v = xv[((n * channels + g * groupC + c) * h + iy) * wd + iz];
                acc = acc + v * wv[((o * groupC + c) * kh + i) * kw + j];
              }
          dst[((n * outC + o) * oh + y) * ow + z] = acc;
        }
    }
  return out;
}

/// windowReduce over a virtually padded input: max with -inf padding, or sum
/// with 0 padding.
HostTensor pool(const HostTensor &x, ArrayRef<int64_t> outShape,
                ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                ArrayRef<int64_t> d, bool isMax) {
  auto xs = x.getShape();
  int64_t h = xs[2], w = xs[3], oh = outShape[2], ow = outShape[3];
  const float pad = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  auto xv = x.values<float>();
  HostTensor out(ElementKind::F32, outShape);
  auto dst = out.values<float>();
  for (int64_t nc = 0; nc < xs[0] * xs[1]; ++nc)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t z = 0; z < ow; ++z) {
        float acc = pad;
        for (int64_t i = 0; i < k[0]; ++i)
          for (int64_t j = 0; j < k[1]; ++j) {
            int64_t iy = y * s[0] + i * d[0] - p[0];
            int64_t iz = z * s[1] + j * d[1] - p[1];
            float v = pad;
            if (iy >= 0 && iy < h && iz >= 0 && iz < w)
              v = xv[(nc * h + iy) * w + iz];
            acc = isMax ? maxS(acc, v) : acc + v;
          }
        dst[(nc * oh + y) * ow + z] = acc;
      }
  return out;
}

HostTensor avgPool(AvgPool2DOp op, const HostTensor &x,
                   ArrayRef<int64_t> outShape) {
  auto k = op.getKernel(), s = op.getStrides(), p = op.getPads();
  int64_t ones[] = {1, 1};
  HostTensor sums = pool(x, outShape, k, s, p, ones, /*isMax=*/false);
  if (op.getCountIncludePad())
    return divideBy(sums, double(k[0] * k[1]));
  // Divide by the number of real elements under each window.
  auto xs = x.getShape();
  auto extent = [](int64_t o, int64_t stride, int64_t pad, int64_t kernel,
                   int64_t size) {
    int64_t start = o * stride - pad;
    return std::min(start + kernel, size) - std::max<int64_t>(start, 0);
  };
  auto dst = sums.values<float>();
  int64_t oh = outShape[2], ow = outShape[3];
  for (int64_t nc = 0; nc < outShape[0] * outShape[1]; ++nc)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t z = 0; z < ow; ++z) {
        int64_t count = extent(y, s[0], p[0], k[0], xs[2]) *
                        extent(z, s[1], p[1], k[1], xs[3]);
        float &v = dst[(nc * oh + y) * ow + z];
        v = v / static_cast<float>(count);
      }
  return sums;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

HostTensor transpose(const HostTensor &x, ArrayRef<int64_t> perm,
                     ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  SmallVector<int64_t> inStrides = rowMajorStrides(x.getShape());
  SmallVector<SmallVector<int64_t>> strides(1);
  for (int64_t p : perm)
    strides[0].push_back(inStrides[p]);
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = x.values<T>();
    auto dst = out.values<T>();
    walk(outShape, strides, {0},
         [&](int64_t i, ArrayRef<int64_t> off) { dst[i] = src[off[0]]; });
  });
  return out;
}

HostTensor slice(SliceOp op, const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  SmallVector<int64_t> inStrides = rowMajorStrides(x.getShape());
  SmallVector<SmallVector<int64_t>> strides(1);
  int64_t base = 0;
  for (int64_t d = 0; d < x.getRank(); ++d) {
    strides[0].push_back(op.getSteps()[d] * inStrides[d]);
    base += op.getStarts()[d] * inStrides[d];
  }
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = x.values<T>();
    auto dst = out.values<T>();
    walk(outShape, strides, {base},
         [&](int64_t i, ArrayRef<int64_t> off) { dst[i] = src[off[0]]; });
  });
  return out;
}

HostTensor concat(ArrayRef<HostTensor> in, int64_t axis,
                  ArrayRef<int64_t> outShape) {
  HostTensor out(in[0].getKind(), outShape);
  int64_t es = getElementSize(out.getKind());
  int64_t outer = product(outShape.take_front(axis));
  int64_t inner = product(outShape.drop_front(axis + 1)) * es;
  char *dst = out.getMutableBytes().data();
  int64_t offset = 0;
  for (const HostTensor &t : in) {
    int64_t chunk = t.getShape()[axis] * inner;
    const char *src = t.getBytes().data();
    for (int64_t o = 0; o < outer && chunk; ++o)
      std::memcpy(dst + (o * outShape[axis] * inner) + offset, src + o * chunk,
                  chunk);
    offset += chunk;
  }
  return out;
}

/// Element j of an index tensor as gather ops read it (clampedIndex):
/// negative indices wrap once; the rest is clamped into [0, size).
int64_t clampedIndex(const HostTensor &indices, int64_t j, int64_t size) {
  int64_t v = indices.getKind() == ElementKind::I64
                  ? indices.values<int64_t>()[j]
                  : indices.values<int32_t>()[j];
  if (v < 0)
    v += size;
  return std::min(std::max<int64_t>(v, 0), size - 1);
}

HostTensor gather(const HostTensor &data, const HostTensor &indices,
                  int64_t axis, ArrayRef<int64_t> outShape) {
  HostTensor out(data.getKind(), outShape);
  auto ds = data.getShape();
  int64_t es = getElementSize(data.getKind());
  int64_t outer = product(ds.take_front(axis)), axisSize = ds[axis];
  int64_t inner = product(ds.drop_front(axis + 1)) * es;
  int64_t count = indices.getNumElements();
  auto index = [&](int64_t j) { return clampedIndex(indices, j, axisSize); };
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j)
      if (inner)
        std::memcpy(dst + (o * count + j) * inner,
                    src + (o * axisSize + index(j)) * inner, inner);
  return out;
}

/// out[i][j][k] = data[clampedIndex(indices[i][j][k])][j][k] (axis 0).
HostTensor gatherElements(const HostTensor &data, const HostTensor &indices,
                          int64_t axis) {
  HostTensor out(data.getKind(), indices.getShape());
  SmallVector<int64_t> dataStrides = rowMajorStrides(data.getShape());
  int64_t axisSize = data.getShape()[axis];
  // Offsets of data[i][j][k] with the axis coordinate left at 0.
  SmallVector<SmallVector<int64_t>> strides = {dataStrides};
  strides[0][axis] = 0;
  dispatchAll(data.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = data.values<T>();
    auto dst = out.values<T>();
    walk(indices.getShape(), strides, {0},
         [&](int64_t i, ArrayRef<int64_t> off) {
           dst[i] = src[off[0] +
                        clampedIndex(indices, i, axisSize) * dataStrides[axis]];
         });
  });
  return out;
}

HostTensor pad(PadOp op, const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  int64_t rank = x.getRank();
  auto pads = op.getPads();
  double value = op.getValue().convertToDouble();
  SmallVector<int64_t> outStrides = rowMajorStrides(outShape);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d)
    base += pads[d] * outStrides[d];
  SmallVector<SmallVector<int64_t>> strides = {outStrides};
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // scalarConstant: the value as f32, or as an integer of the width.
    T fill;
    if constexpr (kIsFloat<T>)
      fill = static_cast<float>(value);
    else if constexpr (std::is_same_v<T, uint8_t>)
      fill = value != 0;
    else
      fill = static_cast<T>(static_cast<int64_t>(value));
    auto dst = out.values<T>();
    std::fill(dst.begin(), dst.end(), fill);
    auto src = x.values<T>();
    walk(x.getShape(), strides, {base},
         [&](int64_t i, ArrayRef<int64_t> off) { dst[off[0]] = src[i]; });
  });
  return out;
}

HostTensor broadcastTo(const HostTensor &x, ArrayRef<int64_t> outShape) {
  HostTensor out(x.getKind(), outShape);
  dispatchAll(x.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto src = x.values<T>();
    auto dst = out.values<T>();
    forEachBroadcast(outShape, {&x}, [&](int64_t i, ArrayRef<int64_t> off) {
      dst[i] = src[off[0]];
    });
  });
  return out;
}

HostTensor select(ArrayRef<HostTensor> in, ArrayRef<int64_t> outShape) {
  HostTensor out(in[1].getKind(), outShape);
  auto cond = in[0].values<uint8_t>();
  dispatchAll(out.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto a = in[1].values<T>(), b = in[2].values<T>();
    auto dst = out.values<T>();
    forEachBroadcast(outShape, {&in[0], &in[1], &in[2]},
                     [&](int64_t i, ArrayRef<int64_t> off) {
                       dst[i] = cond[off[0]] ? a[off[1]] : b[off[2]];
                     });
  });
  return out;
}

HostTensor cast(const HostTensor &x, ElementKind to) {
  return dispatchAll(x.getKind(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    return dispatchAll(to, [&](auto toTag) {
      using To = typename decltype(toTag)::type;
      return mapUnary<To, From>(x, to,
                                [](From v) { return convertS<To, From>(v); });
    });
  });
}

/// A logical op on bool tensors (stored as 0/1 bytes).
template <typename Fn>
HostTensor logical(const HostTensor &a, const HostTensor &b,
                   ArrayRef<int64_t> outShape, Fn &&fn) {
  return mapBinary<uint8_t, uint8_t, uint8_t>(
      a, b, outShape, ElementKind::I1,
      [&](uint8_t x, uint8_t y) -> uint8_t { return fn(x, y); });
}

HostTensor compare(CompareOp op, const HostTensor &a, const HostTensor &b,
                   ArrayRef<int64_t> outShape) {
  ComparePredicate pred = op.getPredicate();
  return dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return mapBinary<uint8_t, T, T>(
        a, b, outShape, ElementKind::I1,
        [&](T x, T y) -> uint8_t { return compareS(pred, x, y); });
  });
}

using FloatFn = float (*)(float);

/// The libm function that a float op's math op (an LLVM intrinsic or a libm
/// call once lowered) ends up calling; null for other ops.
FloatFn libmFunction(Operation *op) {
  // One .Case per macro use.
  // clang-format off
#define MLC_LIBM(OP, FN)                                                       \
  .Case([](OP) -> FloatFn { return [](float x) { return FN(x); }; })
  return llvm::TypeSwitch<Operation *, FloatFn>(op)
      MLC_LIBM(SinOp, sinf) MLC_LIBM(CosOp, cosf) MLC_LIBM(TanOp, tanf)
      MLC_LIBM(AsinOp, asinf) MLC_LIBM(AcosOp, acosf) MLC_LIBM(AtanOp, atanf)
      MLC_LIBM(SinhOp, sinhf) MLC_LIBM(CoshOp, coshf)
      MLC_LIBM(AsinhOp, asinhf) MLC_LIBM(AcoshOp, acoshf)
      MLC_LIBM(AtanhOp, atanhf) MLC_LIBM(FloorOp, floorf)
      MLC_LIBM(CeilOp, ceilf) MLC_LIBM(RoundOp, roundevenf)
      .Default([](Operation *) -> FloatFn { return nullptr; });
#undef MLC_LIBM
  // clang-format on
}

/// The result of a region-free graph op other than graph.constant, whose
/// operands have been checked against its operand types.
FailureOr<HostTensor> evaluateGraphOp(Operation *op, ArrayRef<HostTensor> in,
                                      RankedTensorType resultType,
                                      std::string *error) {
  ArrayRef<int64_t> shape = resultType.getShape();
  // Pooling in the blocked layout [N, C / B, H, W, B]: in NCHW, then back.
  if (isa<MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp>(op) && shape.size() == 5) {
    SmallVector<int64_t> plainShape = {shape[0], shape[1] * shape[4], shape[2],
                                       shape[3]};
    FailureOr<HostTensor> r = evaluateGraphOp(
        op, {unblockChannels(in[0])},
        RankedTensorType::get(plainShape, resultType.getElementType()), error);
    if (failed(r))
      return failure();
    return blockChannels(*r, shape[4]);
  }
  auto bin = [&](auto fn) { return binaryNumeric(in[0], in[1], shape, fn); };
  auto un = [&](auto fn) { return unaryNumeric(in[0], fn); };
  auto fl = [&](float (*fn)(float)) { return unaryFloat(in[0], fn); };
  if (FloatFn fn = libmFunction(op))
    return fl(fn);
  return llvm::TypeSwitch<Operation *, FailureOr<HostTensor>>(op)
      .Case(
          [&](AddOp) { return bin([](auto a, auto b) { return addS(a, b); }); })
      .Case(
          [&](SubOp) { return bin([](auto a, auto b) { return subS(a, b); }); })
      .Case(
          [&](MulOp) { return bin([](auto a, auto b) { return mulS(a, b); }); })
      .Case(
          [&](DivOp) { return bin([](auto a, auto b) { return divS(a, b); }); })
      .Case(
          [&](MaxOp) { return bin([](auto a, auto b) { return maxS(a, b); }); })
      .Case(
          [&](MinOp) { return bin([](auto a, auto b) { return minS(a, b); }); })
      .Case([&](ModOp m) {
        bool fmod = m.getFmod();
        return bin([fmod](auto a, auto b) { return modS(a, b, fmod); });
      })
      .Case(
          [&](PowOp) { return bin([](auto a, auto b) { return powS(a, b); }); })
      .Case([&](NegOp) { return un([](auto a) { return negS(a); }); })
      .Case([&](AbsOp) { return un([](auto a) { return absS(a); }); })
      .Case([&](ReluOp) {
        return un([](auto a) { return maxS(a, decltype(a)(0)); });
      })
      .Case([&](ExpOp) { return fl([](float x) { return expf(x); }); })
      .Case([&](LogOp) { return fl([](float x) { return logf(x); }); })
      .Case([&](SqrtOp) { return fl([](float x) { return sqrtf(x); }); })
      .Case([&](RsqrtOp) { return fl(rsqrtF); })
      .Case([&](TanhOp) { return fl([](float x) { return tanhf(x); }); })
      .Case([&](ErfOp) { return fl([](float x) { return erff(x); }); })
      .Case([&](SigmoidOp) { return fl(sigmoidF); })
      .Case([&](SignOp) { return un([](auto a) { return signS(a); }); })
      .Case([&](GeluOp g) {
        return fl(g.getTanhApproximation() ? geluTanhF : geluErfF);
      })
      .Case([&](CompareOp c) { return compare(c, in[0], in[1], shape); })
      .Case([&](SelectOp) { return select(in, shape); })
      .Case([&](AndOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x & y; });
      })
      .Case([&](OrOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x | y; });
      })
      .Case([&](XorOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x ^ y; });
      })
      .Case([&](NotOp) {
        return mapUnary<uint8_t, uint8_t>(in[0], ElementKind::I1,
                                          [](uint8_t x) { return x ^ 1; });
      })
      .Case([&](CastOp) {
        return cast(in[0], *getElementKind(resultType.getElementType()));
      })
      .Case([&](MatMulOp) { return matmul(in[0], in[1], shape); })
      .Case([&](Conv2DOp c) { return conv2d(c, in, shape); })
      .Case([&](Conv2DNchwcOp c) { return evaluateConv2DNchwc(c, in, shape); })
      .Case(
          [&](WinogradInputOp) { return evaluateWinogradInput(in[0], shape); })
      .Case([&](WinogradOutputOp) {
        return evaluateWinogradOutput(in[0], shape);
      })
      .Case([&](MaxPool2DOp m) {
        return pool(in[0], shape, m.getKernel(), m.getStrides(), m.getPads(),
                    m.getDilations(), /*isMax=*/true);
      })
      .Case([&](AvgPool2DOp a) { return avgPool(a, in[0], shape); })
      .Case([&](GlobalAvgPoolOp) {
        auto s = in[0].getShape();
        return divideBy(reduce(in[0], {2, 3}, Reduce::Sum),
                        double(s[2] * s[3]));
      })
      .Case([&](BatchNormOp b) {
        return batchNorm(in, b.getEpsilon().convertToFloat());
      })
      .Case([&](LayerNormOp l) {
        return layerNorm(in[0], in[1], in[2], l.getAxis(),
                         l.getEpsilon().convertToFloat());
      })
      .Case([&](SoftmaxOp s) { return softmax(in[0], s.getAxis(), false); })
      .Case([&](LogSoftmaxOp s) { return softmax(in[0], s.getAxis(), true); })
      .Case([&](ReduceSumOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Sum), shape);
      })
      .Case([&](ReduceMeanOp r) {
        double count = countOver(in[0].getShape(), r.getAxes());
        return withShape(
            divideBy(reduce(in[0], r.getAxes(), Reduce::Sum), count), shape);
      })
      .Case([&](ReduceMaxOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Max), shape);
      })
      .Case([&](CumSumOp c) {
        return cumsum(in[0], c.getAxis(), c.getExclusive(), c.getReverse());
      })
      .Case([&](ArgMaxOp r) {
        return withShape(argReduce(in[0], r.getAxis(), /*isMax=*/true,
                                   r.getSelectLastIndex()),
                         shape);
      })
      .Case([&](ArgMinOp r) {
        return withShape(argReduce(in[0], r.getAxis(), /*isMax=*/false,
                                   r.getSelectLastIndex()),
                         shape);
      })
      .Case([&](ReduceMinOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Min), shape);
      })
      .Case([&](ReduceProdOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Prod), shape);
      })
      .Case([&](ReshapeOp) { return withShape(in[0], shape); })
      .Case([&](TransposeOp t) { return transpose(in[0], t.getPerm(), shape); })
      .Case([&](ConcatOp c) { return concat(in, c.getAxis(), shape); })
      .Case([&](SliceOp s) { return slice(s, in[0], shape); })
      .Case(
          [&](GatherOp g) { return gather(in[0], in[1], g.getAxis(), shape); })
      .Case([&](PadOp p) { return pad(p, in[0], shape); })
      .Case([&](BroadcastToOp) { return broadcastTo(in[0], shape); })
      .Case([&](GatherElementsOp g) {
        return gatherElements(in[0], in[1], g.getAxis());
      })
      .Case([&](ResizeOp r) { return evaluateResize(r, in, shape); })
      .Case(
          [&](ConvTranspose2DOp) { return evaluateConvTranspose2D(in, shape); })
      .Default([&](Operation *) -> FailureOr<HostTensor> {
        return fail(error,
                    "no evaluator for '" + op->getName().getStringRef() + "'");
      });
}

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// Checks that `t` has the kind and shape of `type`.
LogicalResult checkMatches(const HostTensor &t, Type type, const Twine &what,
                           std::string *error) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  std::optional<ElementKind> kind =
      tensorType ? getElementKind(tensorType.getElementType()) : std::nullopt;
  if (!kind || !tensorType.hasStaticShape())
    return fail(error, what + " has unsupported type " + typeStr(type));
  if (*kind != t.getKind() || tensorType.getShape() != t.getShape())
    return fail(error, what + " must be " + typeStr(type) + ", got " +
                           typeStr(t.getType(type.getContext())));
  return success();
}

} // namespace

namespace {

std::string locStr(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

FailureOr<SmallVector<HostTensor>>
evaluateBlock(Block &block, ArrayRef<HostTensor> args, std::string *error);

/// Ops with a region (graph.fusion_group): the single block's arguments are
/// the operands in order, and its terminator's operands are the results.
FailureOr<SmallVector<HostTensor>>
evaluateRegionOp(Operation *op, ArrayRef<HostTensor> operands,
                 std::string *error) {
  if (!isa<GraphDialect>(op->getDialect()) || op->getNumRegions() != 1 ||
      !llvm::hasSingleElement(op->getRegion(0)))
    return fail(error, "cannot evaluate " + opName(op) +
                           ": not a graph op with one single-block region");
  FailureOr<SmallVector<HostTensor>> results =
      evaluateBlock(op->getRegion(0).front(), operands, error);
  if (failed(results))
    return failure();
  if (results->size() != op->getNumResults())
    return fail(error, opName(op) + " yields " + Twine(results->size()) +
                           " values for " + Twine(op->getNumResults()) +
                           " results");
  for (auto [i, t] : llvm::enumerate(*results))
    if (failed(checkMatches(t, op->getResult(i).getType(),
                            opName(op) + " result #" + Twine(i), error)))
      return failure();
  return results;
}

FailureOr<SmallVector<HostTensor>>
evaluateBlock(Block &block, ArrayRef<HostTensor> args, std::string *error) {
  if (args.size() != block.getNumArguments())
    return fail(error, "block takes " + Twine(block.getNumArguments()) +
                           " arguments, got " + Twine(args.size()));
  llvm::DenseMap<Value, HostTensor> values;
  // Uses left per value, so an operand's last use can take it by move.
  llvm::DenseMap<Value, unsigned> usesLeft;
  auto define = [&](Value v, HostTensor t) {
    usesLeft[v] = std::distance(v.use_begin(), v.use_end());
    values[v] = std::move(t);
  };
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    if (failed(checkMatches(args[i], arg.getType(), "argument #" + Twine(i),
                            error)))
      return failure();
    define(arg, args[i]);
  }
  auto take = [&](Value v) -> HostTensor {
    auto it = values.find(v);
    if (--usesLeft[v] == 0) {
      HostTensor t = std::move(it->second);
      values.erase(it);
      return t;
    }
    return it->second;
  };
  for (Operation &op : block) {
    for (Value v : op.getOperands())
      if (!values.count(v))
        return fail(error, locStr(op.getLoc()) + ": " + opName(&op) +
                               " uses a value defined outside its block");
    SmallVector<HostTensor> operands;
    for (Value v : op.getOperands())
      operands.push_back(take(v));
    if (op.hasTrait<OpTrait::IsTerminator>())
      return SmallVector<HostTensor>(std::move(operands));
    std::string message;
    FailureOr<SmallVector<HostTensor>> results = failure();
    if (op.getNumRegions()) {
      results = evaluateRegionOp(&op, operands, &message);
    } else {
      FailureOr<HostTensor> result = evaluateOp(&op, operands, &message);
      if (succeeded(result))
        results = SmallVector<HostTensor>{std::move(*result)};
    }
    if (failed(results))
      return fail(error, locStr(op.getLoc()) + ": " + message);
    for (auto [v, t] : llvm::zip(op.getResults(), *results))
      define(v, std::move(t));
  }
  return fail(error, "block has no terminator");
}

} // namespace

FailureOr<HostTensor> mlc::graph::evaluateOp(Operation *op,
                                             ArrayRef<HostTensor> operands,
                                             std::string *error) {
  // Any constant-like op with an elements value (graph.constant, and e.g.
  // arith.constant of a tensor).
  if (op->hasTrait<OpTrait::ConstantLike>()) {
    ElementsAttr value;
    if (!matchPattern(op, m_Constant(&value)))
      return fail(error, opName(op) + " is not a tensor constant");
    return fromElementsAttr(value, error);
  }
  if (!isa<GraphDialect>(op->getDialect()))
    return fail(error,
                "cannot evaluate " + opName(op) + ": not a graph dialect op");
  if (op->getNumResults() != 1)
    return fail(error, opName(op) + " must have one result");
  if (operands.size() != op->getNumOperands())
    return fail(error, opName(op) + " has " + Twine(op->getNumOperands()) +
                           " operands, got " + Twine(operands.size()) +
                           " tensors");
  for (auto [i, t] : llvm::enumerate(operands))
    if (failed(checkMatches(t, op->getOperand(i).getType(),
                            opName(op) + " operand #" + Twine(i), error)))
      return failure();
  if (op->getNumRegions()) {
    FailureOr<SmallVector<HostTensor>> results =
        evaluateRegionOp(op, operands, error);
    if (failed(results))
      return failure();
    return std::move(results->front());
  }
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape() ||
      !getElementKind(resultType.getElementType()))
    return fail(error, opName(op) + " has unsupported result type " +
                           typeStr(op->getResult(0).getType()));
  return evaluateGraphOp(op, operands, resultType, error);
}

FailureOr<SmallVector<HostTensor>>
mlc::graph::evaluateFunction(FunctionOpInterface func,
                             ArrayRef<HostTensor> args, std::string *error) {
  Region &body = func.getFunctionBody();
  if (!llvm::hasSingleElement(body))
    return fail(error, "function must have exactly one block");
  if (args.size() != body.front().getNumArguments())
    return fail(error, "function takes " +
                           Twine(body.front().getNumArguments()) +
                           " arguments, got " + Twine(args.size()));
  return evaluateBlock(body.front(), args, error);
}
