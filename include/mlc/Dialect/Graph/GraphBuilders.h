//===- GraphBuilders.h - building graph ops from C++ ------------*- C++ -*-===//
//
// Builders of graph ops and small subgraphs whose types are inferred: splat
// and explicit constants, pad-or-crop, strided scatters (the adjoint of a
// strided slice), gather index normalization, one-hot masks, the transposed
// 2-D convolution (used by the ONNX ConvTranspose converter and by conv2d's
// gradient), and GraphBuilder, a terse builder at one location. Shared by
// the importers, the gradient rules and the passes that expand training ops.
// Result types come from the ops' type inference, so operands must already
// be valid (importers check them first).
//
//===----------------------------------------------------------------------===//
#ifndef MLC_DIALECT_GRAPH_GRAPHBUILDERS_H
#define MLC_DIALECT_GRAPH_GRAPHBUILDERS_H

#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/Builders.h"

namespace mlc::graph {

/// The static tensor type of a graph value.
inline mlir::RankedTensorType tensorTypeOf(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// A splat constant of `elementType` (float or integer) and `shape`.
mlir::Value splatConstant(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type elementType, llvm::ArrayRef<int64_t> shape,
                          double value);

/// A float constant of `elementType` with explicit values.
mlir::Value floatConstant(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type elementType, llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<double> values);

/// An integer constant of `elementType` with explicit values.
mlir::Value intConstant(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Type elementType, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> values);

/// Pads each dim with zeros (positive amounts) or crops it (negative).
mlir::Value padOrCrop(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      llvm::ArrayRef<int64_t> begin,
                      llvm::ArrayRef<int64_t> end);

/// Places element i of `x` at `starts + i * steps` (per dim) inside a zero
/// tensor of shape `full`: the adjoint of a strided slice. Built from zero
/// padding (interleaving via reshape + pad) and crops, no scatter op.
mlir::Value scatterStrided(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value x, llvm::ArrayRef<int64_t> starts,
                           llvm::ArrayRef<int64_t> steps,
                           llvm::ArrayRef<int64_t> full);

/// Index normalization of gather: negative indices count from the end, then
/// out-of-range ones clamp to [0, size).
mlir::Value normalizeIndices(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value indices, int64_t size);

/// `indices == iota(depth)` as a bool tensor of the indices' shape with a
/// new dim of size `depth` inserted at `axis` (indices already normalized).
mlir::Value oneHotMask(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value indices, int64_t depth, int64_t axis);

/// Transposed 2-D convolution (the adjoint of conv2d's input): `x` is
/// [N, Cin, H, W], `filter` is [Cin, Cout/groups, KH, KW] (the layout of the
/// conv2d filter it transposes, and of ONNX ConvTranspose). The full result
/// has spatial size (H - 1) * stride + (K - 1) * dilation + 1; `cropBegin`
/// and `cropEnd` (per spatial dim; negative values extend with zeros) cut
/// it to size. Built as a stride-1 conv2d of the zero-dilated, padded input
/// with the flipped, per-group-transposed filter; as one conv_transpose2d
/// when the stride equals the kernel (no crops, dilations or groups).
mlir::Value buildConvTranspose2D(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value filter,
    mlir::Value bias, llvm::ArrayRef<int64_t> strides,
    llvm::ArrayRef<int64_t> dilations, int64_t groups,
    llvm::ArrayRef<int64_t> cropBegin, llvm::ArrayRef<int64_t> cropEnd);

/// Terse construction of graph ops at one location (types are inferred).
/// Used by the gradient rules, the passes that expand training ops and the
/// training importer.
class GraphBuilder {
public:
  GraphBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() { return loc; }

  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value div(mlir::Value x, mlir::Value y);
  mlir::Value neg(mlir::Value x);
  mlir::Value exp(mlir::Value x);
  mlir::Value log(mlir::Value x);
  mlir::Value rsqrt(mlir::Value x);
  mlir::Value sign(mlir::Value x);
  mlir::Value pow(mlir::Value x, mlir::Value y);
  /// x * s for a scalar s of x's element type.
  mlir::Value scale(mlir::Value x, double s);
  /// A rank-0 constant of `like`'s element type.
  mlir::Value scalar(mlir::Value like, double v);
  mlir::Value cmp(ComparePredicate pred, mlir::Value x, mlir::Value y);
  mlir::Value select(mlir::Value c, mlir::Value t, mlir::Value f);
  /// select(c, g, 0) or, with `invert`, select(c, 0, g).
  mlir::Value where(mlir::Value c, mlir::Value g, bool invert = false);
  mlir::Value cast(mlir::Value x, mlir::Type elementType);
  mlir::Value reshape(mlir::Value x, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value x, llvm::ArrayRef<int64_t> perm);
  mlir::Value broadcastTo(mlir::Value x, llvm::ArrayRef<int64_t> shape);
  mlir::Value reduceSum(mlir::Value x, llvm::ArrayRef<int64_t> axes,
                        bool keepdims);
  mlir::Value reduceMean(mlir::Value x, llvm::ArrayRef<int64_t> axes,
                         bool keepdims);
  mlir::Value matmul(mlir::Value x, mlir::Value y);
  /// Elements [start, end) of `axis`.
  mlir::Value sliceAxis(mlir::Value x, int64_t axis, int64_t start,
                        int64_t end);
  /// Swaps the last two dims.
  mlir::Value transposeLast2(mlir::Value x);

protected:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_GRAPHBUILDERS_H
