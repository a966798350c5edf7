//===- LoweringUtils.h - helpers shared by graph->linalg patterns -*- C++
//-*-===//
//
// Building blocks for lowering graph ops to linalg on tensors: broadcasting
// elementwise generics, reductions, reshapes and padding. All patterns build
// through these so every kernel has the same structure (one linalg op per
// loop nest, parallel dims first), which later tiling and fusion rely on.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H
#define MLC_LIB_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlc::lowering {

using BodyBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Element type helpers.
bool isFloatTensor(mlir::Value v);
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type elementType, double value);
/// Lowest value of the element type (-inf for floats), the identity of max.
mlir::Value lowestValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Type elementType);
/// Highest value of the element type (+inf for floats), the identity of min.
mlir::Value highestValue(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type elementType);

/// Scalar arithmetic that picks the float or integer arith op.
mlir::Value addScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value subScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value mulScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value maxScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value minScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

mlir::Value emptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type);
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value scalar);

/// Map from the loops of an all-parallel nest over `outShape` to the indices
/// of an operand of shape `operandShape`, with numpy broadcasting (size-1
/// dims that are broadcast read index 0).
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx,
                             llvm::ArrayRef<int64_t> operandShape,
                             llvm::ArrayRef<int64_t> outShape);

/// One linalg.generic computing body(inputs...) for every element of a tensor
/// of `resultType`, broadcasting inputs.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, BodyBuilder body);

/// A tensor of `type` holding `input` read through `map` at every index:
/// the bias broadcast that initializes a contraction's accumulator.
mlir::Value broadcastInto(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, mlir::RankedTensorType type,
                          mlir::AffineMap map);

/// A convolution's initial accumulator: `bias` read through `biasMap`
/// (over the parallel loops) when there is one, else zeros.
mlir::Value accumulatorInit(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type, mlir::Value bias,
                            mlir::AffineMap biasMap);

/// acc += x * w as one linalg.generic over `maps` (x, w, acc): the
/// result's rank parallel loops first, the remaining ones reductions.
mlir::Value multiplyAccumulate(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value x, mlir::Value w, mlir::Value init,
                               llvm::ArrayRef<mlir::AffineMap> maps);

/// input / divisor, elementwise (float tensors): means and averages.
mlir::Value divideByConstant(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value input, double divisor);

/// The loops of a reduction of a tensor over sorted `axes`: one parallel
/// loop per result dim, then the reduced dims. With keepDims the result
/// keeps size-1 dims (loops the input ignores) at the reduced positions.
struct ReductionLoops {
  llvm::SmallVector<int64_t> resultShape;
  mlir::AffineMap inputMap, resultMap;
  llvm::SmallVector<mlir::utils::IteratorType> iterators;
};
ReductionLoops reductionLoops(mlir::MLIRContext *ctx,
                              mlir::RankedTensorType inType,
                              llvm::ArrayRef<int64_t> axes, bool keepDims);

enum class ReduceKind { Sum, Max, Min, Prod };
/// Reduces `input` over the sorted `axes`; the result keeps size-1 dims at
/// the reduced positions when keepDims, else drops them.
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<int64_t> axes,
                           ReduceKind kind, bool keepDims);

/// Reshape between any two static shapes with the same element count
/// (through a collapse to 1-D and an expand, which bufferize to views).
mlir::Value reshapeTensor(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, llvm::ArrayRef<int64_t> shape);

/// Constant padding: low[d]/high[d] elements of `value` around each dim;
/// `value` is a scalar or a tensor of one element.
mlir::Value padTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                      llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                      mlir::Value value);

/// Unsigned integers (ui8 at the graph level) are signless in linalg: the
/// same type with signless elements; `v` viewed as its signless type (a
/// cast that makeIntegersSignless removes); `v` viewed as `type` again.
mlir::Type signlessType(mlir::Type type);
mlir::Value toSignless(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
mlir::Value fromSignless(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         mlir::Type type);
/// Whether `v` is a tensor of unsigned integers (ui8).
bool isUnsignedTensor(mlir::Value v);
/// A signless integer scalar widened to i32, zero-extended when it holds an
/// unsigned value; i32 stays as it is.
mlir::Value toI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                  bool isUnsigned);
/// After the patterns: every value, block argument and function type gets
/// its signless type, and the casts between a type and itself go.
void makeIntegersSignless(mlir::Operation *root);

/// Indexing maps (lhs, rhs, result) of a batched matmul as one generic
/// over the loops [batch..., m, n | k]; broadcast batch dims read index 0.
llvm::SmallVector<mlir::AffineMap> matmulMaps(mlir::MLIRContext *ctx,
                                              llvm::ArrayRef<int64_t> lhsShape,
                                              llvm::ArrayRef<int64_t> rhsShape,
                                              mlir::RankedTensorType outType);

/// Pads H and W of an NCHW tensor, or of a blocked [N, C / B, H, W, B]
/// one, by `pads` = [top, left, bottom, right].
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input, llvm::ArrayRef<int64_t> pads,
                       mlir::Value value);
/// Splits dim `d` of `value` into (groups, size / groups).
mlir::Value splitDim(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                     int64_t d, int64_t groups);

/// An NCHW conv2d as one generic: the (group-split) operands, the
/// accumulator type and the maps (x, w, acc) over the loops [n, (g,) o, oh,
/// ow | (c,) kh, kw]; biasMap reads a [(G,) O] bias over the parallel loops.
struct ConvLoops {
  mlir::Value x, w;
  mlir::RankedTensorType accType;
  llvm::SmallVector<mlir::AffineMap> maps;
  mlir::AffineMap biasMap;
  bool grouped = false;
};
ConvLoops convLoops(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Value paddedInput, mlir::Value filter,
                    mlir::RankedTensorType outType, int64_t groups,
                    llvm::ArrayRef<int64_t> strides,
                    llvm::ArrayRef<int64_t> dilations);
/// The accumulator of convLoops as the NCHW result.
mlir::Value ungroup(mlir::OpBuilder &b, mlir::Location loc,
                    const ConvLoops &loops, mlir::Value acc,
                    mlir::RankedTensorType outType);

/// Pattern population, one function per source file.
void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
void populateContractionPatterns(mlir::RewritePatternSet &patterns);
void populateNormalizationPatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns);
void populateUpsamplingPatterns(mlir::RewritePatternSet &patterns);
void populateWinogradPatterns(mlir::RewritePatternSet &patterns);
void populateQuantizationPatterns(mlir::RewritePatternSet &patterns);
void populateIntegerContractionPatterns(mlir::RewritePatternSet &patterns);

} // namespace mlc::lowering

#endif
