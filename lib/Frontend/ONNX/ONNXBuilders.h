//===- ONNXBuilders.h - graph-op building blocks for converters -*- C++ -*-===//
//
// Small helpers the ONNX converters compose: graph ops by type with their
// attributes, reshapes and slices that vanish when they would be no-ops,
// scalar arithmetic, axis handling. Failures are reported at the node.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_FRONTEND_ONNX_ONNXBUILDERS_H
#define MLC_LIB_FRONTEND_ONNX_ONNXBUILDERS_H

#include "ONNXImporter.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/Common/WeightAttr.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlc::frontend {

using N = NodeContext;

/// Unwraps a FailureOr into `var`, returning failure from the caller.
#define MLC_TRY(var, expr)                                                     \
  auto var##OrFail = (expr);                                                   \
  if (failed(var##OrFail))                                                     \
    return mlir::failure();                                                    \
  auto var = std::move(*var##OrFail)

inline int64_t product(llvm::ArrayRef<int64_t> v) {
  return std::accumulate(v.begin(), v.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

inline llvm::SmallVector<int64_t> iota(int64_t n, int64_t start = 0) {
  llvm::SmallVector<int64_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

using mlir::FailureOr;
using mlir::Value;
using Pred = graph::ComparePredicate;

template <typename OpTy> FailureOr<Value> unary(N &n, Value x) {
  return n.emit<OpTy>({x});
}
template <typename OpTy> FailureOr<Value> binary(N &n, Value a, Value b) {
  return n.emit<OpTy>({a, b});
}
/// No-op reshapes and transposes return `x` itself.
FailureOr<Value> reshape(N &n, Value x, llvm::ArrayRef<int64_t> shape);
FailureOr<Value> transpose(N &n, Value x, llvm::ArrayRef<int64_t> perm);
FailureOr<Value> castTo(N &n, Value x, mlir::Type to);
FailureOr<Value> compare(N &n, Pred pred, Value a, Value b);
FailureOr<Value> select(N &n, Value c, Value a, Value b);
/// A graph reduction (ReduceSumOp, ReduceMeanOp, ...).
template <typename OpTy>
FailureOr<Value> reduce(N &n, Value x, llvm::ArrayRef<int64_t> axes,
                        bool keepdims) {
  return n.emit<OpTy>(
      {x}, {n.arrayAttr("axes", axes), n.boolAttr("keepdims", keepdims)});
}
FailureOr<Value> concat(N &n, mlir::ValueRange xs, int64_t axis);
/// Elements [start, end) with `step` along `axis`, everything elsewhere.
FailureOr<Value> sliceAxis(N &n, Value x, int64_t axis, int64_t start,
                           int64_t end, int64_t step = 1);
/// `pieces` (equal types; "<what> <i>" names piece i in the error) stacked
/// along a new dim at `axis`: scan outputs, ConcatFromSequence's new_axis.
FailureOr<Value> stackAxis(N &n, mlir::ValueRange pieces, int64_t axis,
                           llvm::StringRef what);
/// x[..., indices, ...] along `axis` with constant indices.
FailureOr<Value> takeAxis(N &n, Value x, int64_t axis,
                          llvm::ArrayRef<int64_t> indices);
FailureOr<Value> padConstant(N &n, Value x, llvm::ArrayRef<int64_t> pads,
                             double value);
/// x * s and x + s with a scalar of x's type; identities return x.
FailureOr<Value> scale(N &n, Value x, double s);
FailureOr<Value> addScalar(N &n, Value x, double s);
/// Normalized, sorted, unique axes.
FailureOr<llvm::SmallVector<int64_t>>
normalizeAxes(N &n, llvm::ArrayRef<int64_t> axes, int64_t rank);
/// Left-folds a variadic elementwise operator (Sum, Max, ...) over the
/// node's inputs with the binary graph op OpTy.
template <typename OpTy> FailureOr<Value> foldInputs(N &n) {
  Value acc = n.input(0);
  if (!acc)
    return n.unsupported("missing inputs");
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    MLC_TRY(next, binary<OpTy>(n, acc, n.input(i)));
    acc = next;
  }
  return acc;
}
/// numpy matmul semantics around `emit` (which gets operands of rank >= 2):
/// a 1-D operand gets a unit dim that is dropped from the result; ONNXNN.cpp.
using MatMulEmitter = llvm::function_ref<FailureOr<Value>(Value, Value)>;
FailureOr<Value> numpyMatMul(N &n, Value a, Value b, MatMulEmitter emit);
/// An ONNX Conv-like node (1-D to 3-D; the node's auto_pad, pads, strides,
/// dilations, kernel_shape and group) around `emit`, which gets an NCHW
/// input and OIHW filter and conv2d's attributes (graph::buildConv lifts
/// 1-D and stacks 3-D depth taps); ONNXNN.cpp.
using ConvEmitter = graph::Conv2DEmitter;
FailureOr<Value> onnxConv(N &n, Value x, Value w, ConvEmitter emit);
/// Opsets 1-6 of the binary operators: `broadcast` (0: equal shapes) and
/// `axis` (where B's dims align in A) instead of numpy broadcasting;
/// replaces input 1 with B reshaped so numpy broadcasting means the same.
mlir::LogicalResult legacyBroadcast(N &n);
/// Runs `convert` after legacyBroadcast: the opset 1-6 rows.
template <ConvertFn convert> mlir::LogicalResult withLegacyBroadcast(N &n) {
  if (mlir::failed(legacyBroadcast(n)))
    return mlir::failure();
  return convert(n);
}
/// Sets output 0 from `v` (or fails).
mlir::LogicalResult out(N &n, FailureOr<Value> v);

} // namespace mlc::frontend

#endif // MLC_LIB_FRONTEND_ONNX_ONNXBUILDERS_H
