//===- InferTypeUtils.h - checks shared by type inference ---*- C++ -*-===//
//
// Reading attributes from an adaptor (also while parsing), fetching static
// operand types, and the argument checks with their messages, shared by the
// files that implement the graph ops' inferReturnTypes.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_DIALECT_GRAPH_INFERTYPEUTILS_H
#define MLC_LIB_DIALECT_GRAPH_INFERTYPEUTILS_H

#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace mlc::graph::infer {

using namespace mlir;

/// Reads an attribute from an adaptor. While an op is being parsed, its
/// inherent attributes are still in the attribute dictionary rather than in
/// properties, so look in both.
template <typename AttrT, typename AdaptorT>
AttrT readAttr(AdaptorT &adaptor, Attribute fromProperties, StringRef name) {
  if (auto attr = llvm::dyn_cast_or_null<AttrT>(fromProperties))
    return attr;
  if (DictionaryAttr dict = adaptor.getAttributes())
    return llvm::dyn_cast_or_null<AttrT>(dict.get(name));
  return {};
}
#define GRAPH_ATTR(ADAPTOR, TYPE, NAME)                                        \
  readAttr<TYPE>(ADAPTOR, ADAPTOR.getProperties().NAME, #NAME)

inline std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// Shortest round-trip form of a number ("2", "0.5", "2147483648").
inline std::string shortNumber(double v) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

inline std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, ",");
  os << "]";
  return s;
}

inline LogicalResult fail(std::optional<Location> loc, const Twine &message) {
  return emitOptionalError(loc, message);
}

inline RankedTensorType rankedType(Value v) {
  return llvm::dyn_cast_or_null<RankedTensorType>(v ? v.getType() : Type());
}

/// Fetches all operands as ranked tensors; the ODS constraints guarantee this
/// once verified, but inference also runs on unverified ops (parser,
/// importers), so check.
inline LogicalResult getRanked(std::optional<Location> loc, ValueRange operands,
                               SmallVectorImpl<RankedTensorType> &types) {
  for (auto [i, v] : llvm::enumerate(operands)) {
    auto t = rankedType(v);
    if (!t || !t.hasStaticShape())
      return fail(loc, "operand #" + Twine(i) +
                           " must be a statically shaped ranked tensor, got " +
                           (v ? typeStr(v.getType()) : std::string("null")));
    types.push_back(t);
  }
  return success();
}

inline LogicalResult requireAttr(std::optional<Location> loc, Attribute attr,
                                 StringRef name) {
  if (!attr)
    return fail(loc, "requires attribute '" + name + "'");
  return success();
}

inline LogicalResult broadcastAll(std::optional<Location> loc,
                                  ArrayRef<RankedTensorType> types,
                                  SmallVectorImpl<int64_t> &shape) {
  shape.assign(types[0].getShape().begin(), types[0].getShape().end());
  for (RankedTensorType t : types.drop_front()) {
    SmallVector<int64_t> next;
    if (!broadcastShapes(shape, t.getShape(), next)) {
      std::string all;
      for (auto [i, ty] : llvm::enumerate(types))
        all += (i ? ", " : "") + typeStr(ty);
      return fail(loc, "operands are not broadcast-compatible: " + all);
    }
    shape = std::move(next);
  }
  return success();
}

inline LogicalResult sameElementType(std::optional<Location> loc,
                                     ArrayRef<RankedTensorType> types,
                                     StringRef what) {
  for (RankedTensorType t : types.drop_front())
    if (t.getElementType() != types[0].getElementType())
      return fail(loc, what + " must have the same element type, got " +
                           typeStr(types[0].getElementType()) + " and " +
                           typeStr(t.getElementType()));
  return success();
}

/// Shared inference for elementwise binary ops.
inline LogicalResult inferBinary(std::optional<Location> loc,
                                 ValueRange operands,
                                 SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> shape;
  if (failed(getRanked(loc, operands, types)) ||
      failed(sameElementType(loc, types, "operands")) ||
      failed(broadcastAll(loc, types, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, types[0].getElementType()));
  return success();
}

inline LogicalResult inferSame(std::optional<Location> loc, ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  if (failed(getRanked(loc, operands, types)))
    return failure();
  results.push_back(types[0]);
  return success();
}

/// Output size of one spatial dim of a sliding window.
inline LogicalResult windowOutSize(std::optional<Location> loc,
                                   StringRef dimName, int64_t in,
                                   int64_t kernel, int64_t stride,
                                   int64_t padLo, int64_t padHi,
                                   int64_t dilation, int64_t &out) {
  int64_t effective = (kernel - 1) * dilation + 1;
  int64_t padded = in + padLo + padHi;
  if (effective > padded)
    return fail(loc, "window of effective size " + Twine(effective) +
                         " does not fit in padded " + dimName + " size " +
                         Twine(padded));
  out = (padded - effective) / stride + 1;
  return success();
}

inline LogicalResult checkPositive(std::optional<Location> loc,
                                   ArrayRef<int64_t> v, size_t expected,
                                   StringRef name, bool allowZero) {
  if (v.size() != expected)
    return fail(loc, "'" + name + "' must have " + Twine(expected) +
                         " entries, got " + Twine(v.size()));
  for (int64_t x : v)
    if (x < 0 || (!allowZero && x == 0))
      return fail(loc, "'" + name + "' entries must be " +
                           (allowZero ? "non-negative" : "positive") +
                           ", got " + shapeStr(v));
  return success();
}

/// An axis attribute must name a dim of a rank-`rank` tensor.
inline LogicalResult checkAxis(std::optional<Location> loc, StringRef what,
                               int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return fail(loc, what + " " + Twine(axis) + " must be in [0, " +
                         Twine(rank) + ")");
  return success();
}

inline LogicalResult requireRank(std::optional<Location> loc,
                                 RankedTensorType t, int64_t rank,
                                 StringRef what) {
  if (t.getRank() != rank)
    return fail(loc, what + " must have rank " + Twine(rank) + ", got " +
                         typeStr(t));
  return success();
}

/// The result shape of a (batched, broadcasting) matmul; GraphOps.cpp.
LogicalResult matmulShape(std::optional<Location> loc, RankedTensorType lhs,
                          RankedTensorType rhs,
                          SmallVectorImpl<int64_t> &shape);

/// The NCHW result shape of a conv2d, after checking the ranks, attributes
/// and channel counts; GraphOps.cpp.
LogicalResult conv2dShape(std::optional<Location> loc, RankedTensorType input,
                          RankedTensorType filter, DenseI64ArrayAttr strides,
                          DenseI64ArrayAttr pads, DenseI64ArrayAttr dilations,
                          IntegerAttr groups, SmallVectorImpl<int64_t> &shape);

/// conv2dShape with the attributes of a conv op's adaptor (conv2d,
/// conv2d_integer: the same names).
template <typename AdaptorT>
LogicalResult conv2dShape(std::optional<Location> loc, AdaptorT &adaptor,
                          RankedTensorType input, RankedTensorType filter,
                          SmallVectorImpl<int64_t> &shape) {
  return conv2dShape(loc, input, filter,
                     GRAPH_ATTR(adaptor, DenseI64ArrayAttr, strides),
                     GRAPH_ATTR(adaptor, DenseI64ArrayAttr, pads),
                     GRAPH_ATTR(adaptor, DenseI64ArrayAttr, dilations),
                     GRAPH_ATTR(adaptor, IntegerAttr, groups), shape);
}

} // namespace mlc::graph::infer

#endif // MLC_LIB_DIALECT_GRAPH_INFERTYPEUTILS_H
