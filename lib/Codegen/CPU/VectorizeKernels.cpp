//===- VectorizeKernels.cpp - vector-width tiles for non-contraction ops --===//
//
// Elementwise ops, fills, row-wise reductions and pooling windows left by
// mlc-lower-fusion-groups are tiled so that one tile is one vector along a
// chosen dimension, and vectorized. See the pass description in
// include/mlc/Codegen/CPU/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include <numeric>

namespace mlc {
#define GEN_PASS_DEF_VECTORIZEKERNELS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

using utils::IteratorType;

/// How one op is vectorized: along `dim`, `lanes` elements at a time. A
/// `partial` inner reduction keeps one accumulator per lane across the row
/// and combines the lanes once at the end.
struct VectorPlan {
  unsigned dim;
  int64_t lanes;
  bool partial = false;
  /// Vectors of accumulators of a partial reduction: independent chains
  /// hide the latency of the combining op.
  int64_t accumulators = 1;
  /// A transpose: the input's innermost dim, tiled by `lanes` too, so that
  /// a tile reads `lanes` vectors along it and transposes them in
  /// registers instead of gathering scalars.
  std::optional<unsigned> transposedDim;
};

bool isShaped(OpOperand &operand) {
  return isa<RankedTensorType>(operand.get().getType());
}

/// Operands the body actually reads or writes through (pooling has a
/// window operand that only gives the reduction loops their extent).
SmallVector<OpOperand *> accessedOperands(linalg::LinalgOp op) {
  SmallVector<OpOperand *> result;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isShaped(operand))
      continue;
    if (op.isDpsInput(&operand) &&
        op.getMatchingBlockArgument(&operand).use_empty())
      continue;
    result.push_back(&operand);
  }
  return result;
}

/// Splits `e` into sum(coefficient * dim) + constant with positive
/// coefficients; fails on anything else (symbols, mod, div, products of
/// dims, negative strides).
bool linearTerms(AffineExpr e, unsigned numDims,
                 SmallVectorImpl<std::pair<unsigned, int64_t>> &terms,
                 int64_t &constant) {
  std::optional<SmallVector<int64_t>> form =
      mlc::codegen::linearForm(e, numDims);
  if (!form)
    return false;
  for (unsigned d = 0; d < numDims; ++d) {
    if ((*form)[d] < 0)
      return false;
    if ((*form)[d] > 0)
      terms.push_back({d, (*form)[d]});
  }
  constant += form->back();
  return true;
}

/// Dims of `e` with more than one iteration; nullopt if `e` is not linear.
std::optional<SmallVector<unsigned>> nonUnitDims(AffineExpr e,
                                                 ArrayRef<int64_t> ranges) {
  SmallVector<std::pair<unsigned, int64_t>> terms;
  int64_t constant = 0;
  if (!linearTerms(e, ranges.size(), terms, constant))
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (auto [d, c] : terms)
    if (ranges[d] != 1)
      dims.push_back(d);
  return dims;
}

/// Element types the vector lowering handles as is: f16/bf16 are emulated
/// one scalar op at a time later in the pipeline, index has no fixed width,
/// and LLVM packs vectors of i1 into bits while a memref of i1 has a byte
/// per element.
std::optional<unsigned> widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = getElementTypeOrSelf(operand.get().getType());
    if (!t.isF32() && !t.isF64() &&
        !(isa<IntegerType>(t) && t.getIntOrFloatBitWidth() >= 8))
      return std::nullopt;
    bits = std::max(bits, t.getIntOrFloatBitWidth());
  }
  return bits;
}

/// True if, once bufferized, the elements of `v` along `dim` are adjacent:
/// the dims after it have size 1 in the tensor `v` is a slice of (slices of
/// the kernel loops do not make a column contiguous).
bool adjacentAlong(Value v, unsigned dim) {
  while (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (slice.getSourceType().getRank() != slice.getResultType().getRank() ||
        !slice.hasUnitStride())
      return false;
    v = slice.getSource();
  }
  auto type = cast<RankedTensorType>(v.getType());
  for (int64_t d = dim + 1; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1)
      return false;
  return true;
}

/// True if every accessed operand reads `dim` contiguously, with the
/// constant stride of a pooling window, or not at all: a transposed read or
/// a column would be a gather of scalars, which the scalar loop does as well.
bool contiguousAlong(linalg::LinalgOp op, unsigned dim,
                     ArrayRef<int64_t> loopRanges) {
  // After tiling, every other dim has one iteration.
  SmallVector<int64_t> ranges(loopRanges.size(), 1);
  ranges[dim] = loopRanges[dim];
  for (OpOperand *operand : accessedOperands(op)) {
    AffineMap m = op.getMatchingIndexingMap(operand);
    std::optional<unsigned> at;
    for (unsigned r = 0; r < m.getNumResults(); ++r) {
      std::optional<SmallVector<unsigned>> dims =
          nonUnitDims(m.getResult(r), ranges);
      if (!dims)
        return false;
      if (!llvm::is_contained(*dims, dim))
        continue;
      // A window expression (ow * stride + kw) may only involve the vector
      // dim and dims the tiling reduces to one iteration.
      if (at || dims->size() != 1)
        return false;
      at = r;
    }
    if (at && !adjacentAlong(operand->get(), *at))
      return false;
  }
  return true;
}

/// The vector dimension of `op`, or nullopt to leave it scalar.
std::optional<unsigned> chooseVectorDim(linalg::LinalgOp op,
                                        ArrayRef<int64_t> ranges) {
  SmallVector<IteratorType> iterators = op.getIteratorTypesArray();
  // Inner reduction: the reduced input is contiguous along a reduction dim.
  for (OpOperand *in : accessedOperands(op)) {
    if (!op.isDpsInput(in))
      continue;
    AffineMap m = op.getMatchingIndexingMap(in);
    std::optional<unsigned> innermost;
    for (AffineExpr e : llvm::reverse(m.getResults())) {
      std::optional<SmallVector<unsigned>> dims = nonUnitDims(e, ranges);
      if (dims && dims->empty())
        continue;
      if (dims && dims->size() == 1)
        innermost = dims->front();
      break;
    }
    if (!innermost || iterators[*innermost] != IteratorType::reduction)
      continue;
    if (contiguousAlong(op, *innermost, ranges))
      return innermost;
    break;
  }
  // Otherwise the innermost non-unit dim of the result: one lane per
  // result element, each accumulated in the loops' order.
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (int64_t r = int64_t(out.getNumResults()) - 1; r >= 0; --r) {
    auto d = dyn_cast<AffineDimExpr>(out.getResult(r));
    if (!d)
      return std::nullopt;
    if (ranges[d.getPosition()] > 1) {
      if (!contiguousAlong(op, d.getPosition(), ranges))
        return std::nullopt;
      return d.getPosition();
    }
  }
  return std::nullopt;
}

/// The plan of a parallel op that reads an input across the result's
/// innermost dim (NCHW <-> NHWC, K^T, the blocked layout's reorders):
/// square tiles of lanes x lanes, read as vectors along that input's
/// innermost dim and transposed in registers instead of gathered.
std::optional<VectorPlan>
transposePlan(linalg::LinalgOp op, ArrayRef<int64_t> ranges, int64_t lanes) {
  if (op.getNumLoops() != op.getNumParallelLoops() ||
      op.getNumDpsInits() != 1 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isProjectedPermutation(); }))
    return std::nullopt;
  // The innermost dim with more than one iteration, and its position.
  auto innermost =
      [&](AffineMap m) -> std::optional<std::pair<unsigned, unsigned>> {
    for (int64_t r = int64_t(m.getNumResults()) - 1; r >= 0; --r) {
      unsigned d = cast<AffineDimExpr>(m.getResult(r)).getPosition();
      if (ranges[d] > 1)
        return std::pair(d, unsigned(r));
    }
    return std::nullopt;
  };
  OpOperand *init = op.getDpsInitOperand(0);
  auto out = innermost(op.getMatchingIndexingMap(init));
  if (!out || !adjacentAlong(init->get(), out->second))
    return std::nullopt;
  for (OpOperand *in : accessedOperands(op)) {
    AffineMap m = op.getMatchingIndexingMap(in);
    auto inner = innermost(m);
    if (!op.isDpsInput(in) || !m.isFunctionOfDim(out->first) || !inner ||
        inner->first == out->first)
      continue;
    if (ranges[inner->first] * 2 < lanes ||
        !adjacentAlong(in->get(), inner->second))
      return std::nullopt;
    VectorPlan plan{out->first, lanes};
    plan.transposedDim = inner->first;
    return plan;
  }
  return std::nullopt;
}

/// Body ops of a pooling window tile; the vectorizer checks the rest.
bool hasElementwiseBody(linalg::LinalgOp op) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    Dialect *d = inner.getDialect();
    if (!d || (d->getNamespace() != "arith" && d->getNamespace() != "math"))
      return false;
  }
  return true;
}

/// True if every reduction of `op` combines with an operation whose result
/// does not depend on the order of its operands: integer arithmetic and
/// bit ops, float min/max; float add/mul only when reassociating is allowed.
bool hasReorderableCombiners(linalg::LinalgOp op, bool reassociateFP) {
  for (auto [i, arg] : llvm::enumerate(op.getRegionOutputArgs())) {
    SmallVector<Operation *> combiners;
    if (!matchReduction(op.getRegionOutputArgs(), i, combiners) ||
        combiners.size() != 1)
      return false;
    Operation *c = combiners.front();
    if (isa<arith::AddFOp, arith::MulFOp>(c)) {
      if (!reassociateFP)
        return false;
      continue;
    }
    if (!isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::AddIOp, arith::MulIOp, arith::MaxSIOp,
             arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp>(c))
      return false;
  }
  return true;
}

/// True if the body calls libm once vectorized: LLVM splits a vector log,
/// pow, sin, ... into one call per lane, with every vector register saved
/// around each call, which is slower than the scalar loop. Square roots,
/// rounding and fma are instructions; f32 exp, expm1, tanh and erf become
/// polynomials (mlc-approximate-math, in the LLVM pipeline).
bool callsLibm(linalg::LinalgOp op) {
  WalkResult r = op->walk([&](Operation *inner) {
    if (inner->getDialect() && inner->getDialect()->getNamespace() == "math" &&
        !isa<math::SqrtOp, math::RsqrtOp, math::AbsFOp, math::AbsIOp,
             math::FloorOp, math::CeilOp, math::RoundEvenOp, math::TruncOp,
             math::FmaOp, math::CopySignOp>(inner) &&
        !(isa<math::ExpOp, math::ExpM1Op, math::TanhOp, math::ErfOp>(inner) &&
          getElementTypeOrSelf(inner->getResult(0).getType()).isF32()))
      return WalkResult::interrupt();
    if (isa<arith::RemFOp>(inner)) // fmodf
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// The plan for `op`, or nullopt if it stays scalar.
std::optional<VectorPlan> planFor(linalg::LinalgOp op, unsigned vectorBits,
                                  bool reassociateFP) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
      !isa<TilingInterface>(op.getOperation()))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  std::optional<unsigned> bits = widestElementBits(op);
  if (!bits)
    return std::nullopt;
  int64_t lanes = vectorBits / *bits;
  if (lanes < 2)
    return std::nullopt;
  // Contractions (two inputs read along a reduction dim) are scheduled by
  // mlc-lower-fusion-groups.
  unsigned reducedInputs = 0;
  SmallVector<IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand *in : accessedOperands(op)) {
    if (!op.isDpsInput(in))
      continue;
    AffineMap m = op.getMatchingIndexingMap(in);
    for (unsigned d = 0; d < iterators.size(); ++d)
      if (iterators[d] == IteratorType::reduction && ranges[d] > 1 &&
          m.isFunctionOfDim(d)) {
        ++reducedInputs;
        break;
      }
  }
  if (reducedInputs > 1)
    return std::nullopt;
  // Gathers would need vector.gather. Index computations (the divisor of
  // an average pool without padding) are left scalar too: the vector form
  // of linalg.index on a unit dim crashes vector.extract's folder (LLVM 22).
  bool hasExtractOrIndex = false;
  op->walk([&](Operation *inner) {
    if (isa<tensor::ExtractOp, linalg::IndexOp>(inner))
      hasExtractOrIndex = true;
  });
  if (hasExtractOrIndex || callsLibm(op))
    return std::nullopt;
  std::optional<unsigned> dim = chooseVectorDim(op, ranges);
  if (!dim) {
    std::optional<VectorPlan> plan = transposePlan(op, ranges, lanes);
    if (!plan || failed(linalg::vectorizeOpPrecondition(op)))
      return std::nullopt;
    return plan;
  }
  // Check the body once on the untiled op; window ops (not projected
  // permutations) are checked again after their rewrite.
  bool window = !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return m.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
  if (window ? !hasElementwiseBody(op)
             : failed(linalg::vectorizeOpPrecondition(op)))
    return std::nullopt;
  VectorPlan plan{*dim, lanes};
  plan.partial = iterators[*dim] == IteratorType::reduction &&
                 ranges[*dim] > lanes &&
                 hasReorderableCombiners(op, reassociateFP);
  // Up to four chains, each with at least four vectors to combine.
  if (plan.partial)
    plan.accumulators = std::clamp<int64_t>(
        llvm::bit_floor(uint64_t(ranges[*dim] / (4 * lanes))), 1, 4);
  return plan;
}

/// True if `op` is one vector tile: one iteration in every dim but the
/// vector dim, which has at most `maxLanes`.
bool isVectorTile(linalg::LinalgOp op, const VectorPlan &plan,
                  int64_t maxLanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, n] : llvm::enumerate(ranges))
    if (d == plan.dim || d == plan.transposedDim ? n > maxLanes : n != 1)
      return false;
  return true;
}

/// Peels the last iteration of `loop` if its step does not divide its trip,
/// so the last tile becomes a smaller static vector instead of a masked one.
void peelPartialTile(RewriterBase &rewriter, scf::ForOp loop) {
  scf::ForOp partial;
  (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
}

/// Splits a large op's outermost parallel dim (not the vector dim) into an
/// scf.forall of single iterations, for the runtime's threads; returns the
/// op inside, or `op` when it is small, already in a parallel loop, or has
/// no such dim.
FailureOr<linalg::LinalgOp> tileForThreads(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
                                           const VectorPlan &plan,
                                           int64_t minWork) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // A math function (exp, tanh, erf: a polynomial of 10-20 instructions
  // once approximated) weighs as much as several plain ops: SiLU's
  // x * sigmoid(x) over 188K elements took 0.18 ms on one thread.
  // So does a step of a reduction, a chain of dependent adds in loop order
  // (4 cycles each: a global average pool over 188K elements took 0.17 ms).
  int64_t mathOps = 0;
  op->walk([&](Operation *inner) {
    mathOps += isa<math::MathDialect>(inner->getDialect());
  });
  int64_t weight = (1 + 8 * mathOps) * (op.getNumReductionLoops() ? 4 : 1);
  if (!mlc::codegen::worthThreads(ranges, llvm::divideCeil(minWork, weight)) ||
      op->getParentOfType<scf::ForallOp>())
    return op;
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  std::optional<unsigned> dim;
  for (unsigned d = 0; d < ranges.size() && !dim; ++d)
    if (kinds[d] == utils::IteratorType::parallel && d != plan.dim &&
        d != plan.transposedDim && ranges[d] >= 2)
      dim = d;
  if (!dim)
    return op;
  SmallVector<OpFoldResult> sizes(ranges.size(), rewriter.getIndexAttr(0));
  sizes[*dim] = rewriter.getIndexAttr(1);
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes).setLoopType(
      scf::SCFTilingOptions::LoopType::ForallOp);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// Tiles `op` into vector tiles and peels a partial last tile.
LogicalResult tileToVectors(RewriterBase &rewriter, linalg::LinalgOp op,
                            const VectorPlan &plan, int64_t minWork) {
  OpBuilder::InsertionGuard guard(rewriter);
  FailureOr<linalg::LinalgOp> inner =
      tileForThreads(rewriter, op, plan, minWork);
  if (failed(inner))
    return failure();
  op = *inner;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // One iteration of every other dim; vector tiles of `dim`, unless it is
  // a partial reduction, tiled below.
  SmallVector<OpFoldResult> sizes;
  // Loops of lanes-wide tiles and the dim each tiles.
  SmallVector<std::pair<unsigned, unsigned>> vectorLoops;
  unsigned numLoops = 0;
  for (auto [d, n] : llvm::enumerate(ranges)) {
    int64_t size = n == 1 ? 0 : 1;
    if (d == plan.dim || d == plan.transposedDim) {
      size = n > plan.lanes && !plan.partial ? plan.lanes : 0;
      if (size)
        vectorLoops.push_back({numLoops, unsigned(d)});
    }
    numLoops += size != 0;
    sizes.push_back(rewriter.getIndexAttr(size));
  }
  Operation *tile = op;
  if (numLoops) {
    rewriter.setInsertionPoint(op);
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return failure();
    rewriter.replaceOp(op, tiled->replacements);
    tile = tiled->tiledOps.back();
    // Inner loop first: peeling the outer one then copies both parts.
    for (auto [loop, d] : llvm::reverse(vectorLoops))
      if (ranges[d] % plan.lanes != 0)
        peelPartialTile(rewriter,
                        cast<scf::ForOp>(tiled->loops[loop].getOperation()));
  }
  if (!plan.partial)
    return success();

  // Lane-wise accumulators along the row, merged once after the loop.
  int64_t accLanes = plan.lanes * plan.accumulators;
  SmallVector<OpFoldResult> laneSizes(ranges.size(), rewriter.getIndexAttr(0));
  laneSizes[plan.dim] = rewriter.getIndexAttr(accLanes);
  rewriter.setInsertionPoint(tile);
  scf::SCFTilingOptions options;
  options.setTileSizes(laneSizes)
      .setReductionTilingStrategy(
          ReductionTilingStrategy::PartialReductionOuterReduction)
      .setReductionDims({plan.dim});
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(tile), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(tile, tiled->replacements);
  if (ranges[plan.dim] % accLanes != 0)
    peelPartialTile(rewriter,
                    cast<scf::ForOp>(tiled->loops.front().getOperation()));
  return success();
}

/// In a tile of a pooling window, input[.., oh * s + kh * d, ow * s + kw * d]
/// has one non-unit dim per expression: index a strided slice of the input
/// by that dim instead (linalg::vectorize needs projected permutations).
LogicalResult rewriteWindowMaps(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *ctx = op.getContext();
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap m = maps[in->getOperandNumber()];
    if (m.isProjectedPermutation(/*allowZeroInResults=*/true))
      continue;
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : m.getResults()) {
      SmallVector<std::pair<unsigned, int64_t>> terms;
      int64_t constant = 0;
      if (!linearTerms(e, m.getNumDims(), terms, constant))
        return failure();
      std::optional<std::pair<unsigned, int64_t>> moving;
      for (auto term : terms) {
        if (ranges[term.first] == 1)
          continue;
        if (moving)
          return failure();
        moving = term;
      }
      offsets.push_back(rewriter.getIndexAttr(constant));
      if (moving) {
        exprs.push_back(getAffineDimExpr(moving->first, ctx));
        sizes.push_back(rewriter.getIndexAttr(ranges[moving->first]));
        strides.push_back(rewriter.getIndexAttr(moving->second));
      } else {
        exprs.push_back(getAffineConstantExpr(0, ctx));
        sizes.push_back(rewriter.getIndexAttr(1));
        strides.push_back(rewriter.getIndexAttr(1));
      }
    }
    AffineMap newMap = AffineMap::get(m.getNumDims(), 0, exprs, ctx);
    if (!newMap.isProjectedPermutation(/*allowZeroInResults=*/true))
      return failure();
    rewriter.setInsertionPoint(op);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), in->get(), offsets, sizes, strides);
    rewriter.modifyOpInPlace(op, [&] { in->set(slice); });
    maps[in->getOperandNumber()] = newMap;
  }
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return success();
}

/// An elementwise generic writing a tensor.empty can write over an input of
/// the same type that dies there: it then reads that input through its
/// output. One-shot bufferization reuses such an input's buffer for a
/// linalg op, but not for the loop of vector tiles the op becomes (it cannot
/// see that each tile reads only the elements it writes), unless the
/// tiles read and write the same destination.
void reuseDyingInput(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !op.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)) ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return;
  Type resultType = op->getResult(0).getType();
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value x = in->get();
    // Inside a fusion group not yet inlined, an input of the group stands
    // for the value outside it (read only: other threads may be lowering
    // other groups, but none changes this group's operands).
    Value outer = x;
    if (auto arg = dyn_cast<BlockArgument>(x))
      if (auto group = dyn_cast<mlc::graph::FusionGroupOp>(
              arg.getOwner()->getParentOp()))
        outer = group.getInputs()[arg.getArgNumber()];
    Operation *def = outer.getDefiningOp();
    if (x.getType() != resultType || !x.hasOneUse() || !outer.hasOneUse() ||
        !def || isa<tensor::ExtractSliceOp, arith::ConstantOp>(def) ||
        !op.getMatchingIndexingMap(in).isIdentity())
      continue;
    unsigned pos = in->getOperandNumber();
    Block *body = op.getBlock();
    BlockArgument inArg = body->getArgument(pos);
    BlockArgument outArg = body->getArgument(body->getNumArguments() - 1);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps.erase(maps.begin() + pos);
    rewriter.modifyOpInPlace(op, [&] {
      rewriter.replaceAllUsesWith(inArg, outArg);
      op.getDpsInitOperand(0)->set(x);
      op->eraseOperand(pos);
      body->eraseArgument(pos);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      op.getProperties().operandSegmentSizes[0] -= 1;
    });
    return;
  }
}

struct VectorizeKernels : mlc::impl::VectorizeKernelsBase<VectorizeKernels> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits == 0)
      return;
    mlc::codegen::VectorizeOptions options;
    options.vectorBits = vectorBits;
    options.reassociateFPReductions = reassociateFPReductions;
    options.parallelMinWork = parallelMinWork;
    options.topLevelOnly = topLevelOnly;
    mlc::codegen::VectorizePatterns patterns(&getContext());
    mlc::codegen::vectorizeKernels(getOperation(), options, patterns);
  }
};

} // namespace

void mlc::codegen::vectorizeKernels(Operation *scope,
                                    const VectorizeOptions &options,
                                    const VectorizePatterns &patterns) {
  IRRewriter rewriter(scope->getContext());
  // Tile-and-fuse leaves a copy of a producer per consumer slice; merge
  // them before they become loops, which CSE does not merge. (Not needed
  // for the entry function's own ops, which no tiling copied: there it cost
  // 0.06 s on DenseNet-121, and the zoo's model.so files were the same
  // bytes without it.)
  if (!options.topLevelOnly) {
    DominanceInfo dominance(scope);
    eliminateCommonSubExpressions(rewriter, dominance, scope);
  }
  Block &body = scope->getRegion(0).front();
  SmallVector<linalg::LinalgOp> candidates;
  auto isPadFill = [](linalg::LinalgOp op) {
    if (!isa<linalg::FillOp>(op.getOperation()) || !op->hasOneUse())
      return false;
    auto insert = dyn_cast<tensor::InsertSliceOp>(*op->user_begin());
    return insert && insert.getDest() == op->getResult(0);
  };
  scope->walk([&](linalg::LinalgOp op) {
    if ((!options.topLevelOnly || op->getBlock() == &body) &&
        !(options.leavePadFills && isPadFill(op)))
      candidates.push_back(op);
  });
  if (candidates.empty())
    return;
  // With topLevelOnly the steps below touch only what the candidates
  // become: the cleanup patterns run again over kernels vectorized before
  // can cycle, and would cost their time again.
  llvm::DenseSet<Operation *> untouched;
  if (options.topLevelOnly) {
    for (Operation &op : body)
      untouched.insert(&op);
    for (linalg::LinalgOp op : candidates)
      untouched.erase(op);
  }
  auto walkTouched = [&](auto fn) {
    if (!options.topLevelOnly)
      return (void)scope->walk(fn);
    for (Operation &op : llvm::make_early_inc_range(body))
      if (!untouched.contains(&op))
        op.walk(fn);
  };
  // Like the canonicalize pass, a rewrite that does not converge is no
  // error.
  auto rewriteTouched = [&](const FrozenRewritePatternSet &set) {
    if (!options.topLevelOnly)
      return (void)applyPatternsGreedily(scope, set);
    SmallVector<Operation *> ops;
    walkTouched([&](Operation *op) { ops.push_back(op); });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(ops, set, config);
  };

  // 1. Tile every op with a plan into vector tiles.
  for (linalg::LinalgOp op : candidates) {
    // Also for ops left scalar: their producer may become a loop.
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      reuseDyingInput(rewriter, generic);
    std::optional<VectorPlan> plan =
        planFor(op, options.vectorBits, options.reassociateFPReductions);
    if (!plan) {
      // Left scalar (a transpose gathers): a large one still runs on the
      // runtime's threads (the blocked layout's reorders and Winograd's
      // transposes of ResNet-18 at batch 8 took 8% of a run and did not
      // speed up with a second thread).
      OpBuilder::InsertionGuard guard(rewriter);
      VectorPlan scalar{/*dim=*/~0u, /*lanes=*/1};
      (void)tileForThreads(rewriter, op, scalar, options.parallelMinWork);
      continue;
    }
    if (isVectorTile(op, *plan, plan->lanes))
      continue;
    // An op that cannot be tiled stays as it is.
    (void)tileToVectors(rewriter, op, *plan, options.parallelMinWork);
  }

  // 2. Fold the peeled tiles' sizes to constants (static tiles).
  rewriteTouched(patterns.canonical);

  // 3. Vectorize every op that is one vector tile.
  SmallVector<std::pair<linalg::LinalgOp, VectorPlan>> tiles;
  walkTouched([&](linalg::LinalgOp op) {
    std::optional<VectorPlan> plan =
        planFor(op, options.vectorBits, options.reassociateFPReductions);
    // A few registers: partial reductions' accumulators.
    if (plan && isVectorTile(op, *plan, 4 * plan->lanes))
      tiles.push_back({op, *plan});
  });
  for (auto [op, plan] : tiles) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      if (!llvm::all_of(generic.getIndexingMapsArray(),
                        [](AffineMap m) {
                          return m.isProjectedPermutation(
                              /*allowZeroInResults=*/true);
                        }) &&
          failed(rewriteWindowMaps(rewriter, generic)))
        continue;
    if (failed(linalg::vectorizeOpPrecondition(op)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op);
    if (failed(result))
      continue;
    rewriter.replaceOp(op, result->replacements);
  }

  // 4. 1-D vectors; accumulators (slices, then vectors of them) carried in
  // registers across the reduction loops; then transfers read and write
  // the kernels' tensors directly.
  rewriteTouched(patterns.cleanup);
  if (options.topLevelOnly) {
    // A driver over a list of ops does not unique the constants it folds
    // to: a subset read and written at two equal constant indices is not
    // hoisted.
    DominanceInfo dominance(scope);
    eliminateCommonSubExpressions(rewriter, dominance, scope);
  }
  SmallVector<scf::ForOp> loops;
  walkTouched([&](scf::ForOp loop) { loops.push_back(loop); }); // inner first
  for (scf::ForOp loop : loops) {
    // Nor does it move the constants it folds to out of loops: a read
    // whose padding value is defined in the loop is not hoisted.
    if (options.topLevelOnly)
      moveLoopInvariantCode(loop);
    LoopLikeOpInterface hoisted = hoistLoopInvariantSubsets(rewriter, loop);
    moveLoopInvariantCode(hoisted);
  }
  rewriteTouched(patterns.folding);
}
