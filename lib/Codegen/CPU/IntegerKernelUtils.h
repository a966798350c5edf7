//===- IntegerKernelUtils.h - shared parts of the int8 kernels --*- C++ -*-===//
//
// What the integer matmul and convolution kernels share: the two forms of
// their dot step, recognizing the integer contraction's body, the packed
// weights and the zero point's correction, the broadcast input bytes, and
// the epilogue applied to the corrected sums (IntegerKernelUtils.cpp).
//
// Both kernels compute sum (x - zx) w over 8-bit x and constant int8 w as
// sum x' w - (zx + s) sum(w), x' the input as uint8 (a signed x has its sign
// bit flipped, s = 128): the correction is a constant per output column.
// Each int32 lane of an accumulator takes `group` reduction elements per
// step: 4 uint8 x int8 products (AVX-512 VNNI vpdpbusd), or without VNNI
// (AVX2 or AVX-512BW) 2 int16 x int16 products of the bytes widened
// (vpmaddwd), or, when every weight is within [-64, 64], 4 uint8 x int8
// products again (vpmaddubsw, then vpmaddwd by 1: its int16 sums of two
// products cannot saturate then, 2 * 255 * 64 < 2^15; with 8-bit weights
// they can, the known pitfall of int8 on AVX2).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_INTEGERKERNELUTILS_H
#define MLC_LIB_CODEGEN_CPU_INTEGERKERNELUTILS_H

#include "KernelSchedules.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlc::codegen::int8 {

/// How the integer kernels of a target multiply.
struct DotKind {
  int64_t lanes = 16; // int32 lanes of a vector register
  int64_t group = 4;  // reduction elements per lane and step
  int64_t registers = 32;
  /// vpmaddubsw + vpmaddwd: 4 bytes per lane, weights within [-64, 64].
  bool narrowBytes = false;
  bool pairs() const { return group == 2; }
  /// The packed weights' element type: i8, or i16 for pairs.
  mlir::Type weightType(mlir::MLIRContext *ctx) const;
  /// The vector of one step's x (broadcast) or weights: lanes * group.
  mlir::VectorType operandType(mlir::MLIRContext *ctx) const;
};

/// The kind the options give (VNNI with 512-bit vectors, or without it
/// pairs with 256 or 512, narrow bytes when `weights` are all within
/// [-64, 64]), if any.
std::optional<DotKind> dotKind(const KernelOptions &options,
                               llvm::ArrayRef<int8_t> weights);

/// The 8-bit lhs of an integer contraction's body: its signedness and
/// constant zero point.
struct ByteOperand {
  bool isSigned = false;
  int64_t zeroPoint = 0;
};

/// The zero point of x as the uint8 bytes the kernels read.
inline int64_t unsignedZeroPoint(const ByteOperand &x) {
  return x.zeroPoint + (x.isSigned ? 128 : 0);
}

/// What the matmul and convolution kernels' plans share.
struct KernelPlan {
  mlir::linalg::GenericOp op, epilogue;
  llvm::SmallVector<EpilogueInput> epilogueInputs;
  ByteOperand x;
  graph::HostTensor weights; // int8
};

/// for i in [from, to) step `step`, carrying `dest` through
/// `body(i, dest)`.
mlir::Value
loopCarrying(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dest,
             int64_t from, int64_t to, int64_t step,
             llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)> body);

/// Threads over bands of the `rows` output rows of a blocked convolution
/// (dim 2 of `dest`): about 8 tasks of `band` rows, band dividing `rows`,
/// each `body(oh0, slice, band)`.
mlir::Value forallOverRowBands(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value dest, int64_t rows,
    llvm::function_ref<mlir::Value(mlir::Value, mlir::Value, int64_t)> body);

/// (stride, dilation) when `e` is exactly d_out * stride + d_k * dilation
/// over `numDims` dims, both positive.
std::optional<std::pair<int64_t, int64_t>>
windowCoefficients(mlir::AffineExpr e, unsigned outDim, unsigned kDim,
                   unsigned numDims);

/// Whether `op`'s body is acc + (ext(x) - zx) * sext(w) with x input 0, w
/// input 1 (int8, zero point 0) and zx a constant (or absent). Fills `x`.
bool isByteDotBody(mlir::linalg::GenericOp op, ByteOperand &x);

/// Weights packed as [tiles, steps, lanes * group] (column `col` in tile
/// col / lanes, reduction index k in step k / group) and the correction per
/// column, built as constants.
class PackedWeights {
public:
  PackedWeights(const DotKind &kind, int64_t tiles, int64_t reduction);
  void set(int64_t col, int64_t k, int8_t v);
  /// [tiles, steps, lanes * group] i8 or i16, and [tiles * lanes] i32:
  /// (zx + s) times each column's sum.
  mlir::Value packed(mlir::OpBuilder &b, mlir::Location loc,
                     llvm::StringRef name);
  mlir::Value correction(mlir::OpBuilder &b, mlir::Location loc,
                         const ByteOperand &x);
  int64_t tiles = 0, steps = 0;

private:
  DotKind kind;
  std::vector<int16_t> values; // widened at the end for i8
  std::vector<int64_t> sums;
};

/// `kind.group` bytes of `src` from `indices` on (the last index the first
/// byte), as uint8 (sign bit flipped for a signed x), widened to int16 for
/// pairs, broadcast to every lane: the dot's x operand. `inBounds`: the
/// bytes are known to be inside `src` (else those past its end read 0, one
/// by one).
mlir::Value broadcastGroup(mlir::OpBuilder &b, mlir::Location loc,
                           const DotKind &kind, mlir::Value src,
                           mlir::ValueRange indices, const ByteOperand &x,
                           bool inBounds);

/// One step's packed weights of tile `tile` sign-extended to i32.
mlir::Value readWeights(mlir::OpBuilder &b, mlir::Location loc,
                        const DotKind &kind, mlir::Value packed,
                        mlir::Value tile, mlir::Value step);

/// acc + the sums of `group` products per lane of the broadcast x and the
/// widened weights, as pure vector ops (bufferization needs known effects):
/// mlc-x86-int-dot makes them one vpdpbusd or vpmaddwd once the buffers
/// are there.
mlir::Value dotStep(mlir::OpBuilder &b, mlir::Location loc, const DotKind &kind,
                    mlir::Value acc, mlir::Value x, mlir::Value wWide);

/// The kernel's output vector: `sum` minus the correction's lanes at
/// `col`, through the epilogue (its inputs read at the output indices
/// `at`), written to `dest` at `destAt` (masked past the end unless
/// `inBounds`); returns the new dest.
mlir::Value writeResult(mlir::OpBuilder &b, mlir::Location loc,
                        const DotKind &kind, mlir::Value dest, mlir::Value sum,
                        mlir::Value correction, mlir::Value col,
                        mlir::linalg::GenericOp epilogue,
                        llvm::ArrayRef<EpilogueInput> epilogueInputs,
                        llvm::ArrayRef<mlir::Value> at,
                        llvm::ArrayRef<mlir::Value> destAt, bool inBounds);

/// Marks the max, min and NaN tests of an integer kernel's epilogue whose
/// float operands are provably finite (from the int32 sums and constants)
/// `nnan` (FiniteEpilogues.cpp).
void assumeFiniteEpilogue(graph::FusionGroupOp group,
                          mlir::linalg::GenericOp epilogue,
                          llvm::ArrayRef<EpilogueInput> inputs);

/// The integer kernels' driver: the group's result (or the epilogue of
/// one) whose op `match(op, plan)` takes (a null plan: only the test), the
/// dot kind of the options and the plan's weights if `accepts(plan, kind)`,
/// the epilogue's inputs, and the root replaced by what `emit(plan, kind,
/// dest)` builds in front of it.
template <typename PlanT>
mlir::FailureOr<bool> emitIntegerKernel(
    mlir::RewriterBase &rewriter, graph::FusionGroupOp group,
    const KernelOptions &options,
    llvm::function_ref<bool(mlir::linalg::GenericOp, PlanT *)> match,
    llvm::function_ref<bool(const PlanT &, const DotKind &)> accepts,
    llvm::function_ref<mlir::Value(PlanT &, const DotKind &, mlir::Value)>
        emit) {
  if (!options.vnni && !options.int16Pairs)
    return false;
  std::optional<KernelRoot> kr = matchKernelRoot(
      group, [&](mlir::linalg::GenericOp op) { return match(op, nullptr); });
  if (!kr)
    return false;
  PlanT plan;
  match(kr->op, &plan);
  std::optional<DotKind> kind =
      dotKind(options, plan.weights.template values<int8_t>());
  if (!kind || !accepts(plan, *kind))
    return false;
  plan.epilogue = kr->epilogue;
  if (plan.epilogue) {
    std::optional<llvm::SmallVector<EpilogueInput>> ins =
        epilogueInputs(plan.epilogue, kr->op.getResult(0));
    if (!ins)
      return false;
    plan.epilogueInputs = std::move(*ins);
    assumeFiniteEpilogue(group, plan.epilogue, plan.epilogueInputs);
  }
  mlir::linalg::GenericOp root = kr->epilogue ? kr->epilogue : kr->op;
  mlir::OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(root);
  mlir::Value result = emit(plan, *kind, root.getDpsInits()[0]);
  rewriter.replaceOp(root, result);
  return true;
}

} // namespace mlc::codegen::int8

#endif
