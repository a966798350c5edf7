//===- ResizeGeneric.h - the linalg form of graph.resize --------*- C++ -*-===//
//
// graph.resize lowers (GraphToLinalg/Upsampling.cpp) to one all-parallel
// linalg.generic over the result, marked with kResizeAxesAttr. Its inputs
// are, for each resized axis k and each of its taps t in order, the index
// table and the weight table of axis k, both read at [t, o_axis]; its body
// reads the source tensor (captured, not an operand) with tensor.extract at
// the clamped table indices and sums the weighted taps as the op's
// description says. The CPU resize kernel (Codegen/CPU/ResizeKernel.cpp)
// recognizes the generic by its marker and reads the tables from it.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_CONVERSION_GRAPHTOLINALG_RESIZEGENERIC_H
#define MLC_CONVERSION_GRAPHTOLINALG_RESIZEGENERIC_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlc::lowering {

/// The discardable attribute marking a resize generic: the resized axes.
inline constexpr llvm::StringLiteral kResizeAxesAttr = "mlc.resize_axes";

/// What a resize generic computes.
struct ResizeGeneric {
  mlir::Value source;
  llvm::SmallVector<int64_t> axes;
  /// Per axis: the [taps, out] tables.
  llvm::SmallVector<mlir::Value> indices, weights;
};

/// Builds the generic computing resize(source) into a tensor of `type`.
mlir::Value buildResizeGeneric(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value source, mlir::RankedTensorType type,
                               llvm::ArrayRef<int64_t> axes,
                               mlir::ValueRange indices,
                               mlir::ValueRange weights);

/// The resize `op` computes, if it is a marked resize generic with the
/// expected operands.
std::optional<ResizeGeneric> matchResizeGeneric(mlir::linalg::GenericOp op);

} // namespace mlc::lowering

#endif
