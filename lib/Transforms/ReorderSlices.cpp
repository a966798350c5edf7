//===- ReorderSlices.cpp - slice elementwise operands, not results --------===//
//
// slice(f(a, b, ...)) -> f(slice(a), slice(b), ...) for elementwise f, so f
// computes only the elements that are kept. An operand is sliced only along
// the dims where it is not broadcast; along a broadcast (size-1) dim it keeps
// its single element. Applies when the slice keeps fewer elements than f
// produces and f has no other user (otherwise f runs in full anyway).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHREORDERSLICES
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

struct SliceBeforeElementwise : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SliceOp slice,
                                PatternRewriter &rewriter) const override {
    Operation *producer = slice.getInput().getDefiningOp();
    if (!producer || !isBroadcastingElementwise(producer) ||
        !slice.getInput().hasOneUse())
      return failure();
    auto fullType = cast<RankedTensorType>(slice.getInput().getType());
    if (slice.getType().getNumElements() >= fullType.getNumElements())
      return failure();

    ArrayRef<int64_t> starts = slice.getStarts(), ends = slice.getEnds(),
                      steps = slice.getSteps();
    int64_t rank = fullType.getRank();
    struct OperandSlice {
      SmallVector<int64_t> starts, ends, steps, shape;
      bool identity = true;
    };
    SmallVector<OperandSlice, 3> plans;
    SmallVector<int64_t> resultShape;
    for (Value operand : producer->getOperands()) {
      auto type = cast<RankedTensorType>(operand.getType());
      // Operands align with the result at the trailing dims.
      int64_t offset = rank - type.getRank();
      OperandSlice &plan = plans.emplace_back();
      for (int64_t d = 0; d < type.getRank(); ++d) {
        int64_t size = type.getDimSize(d);
        int64_t start = 0, end = size, step = 1;
        // Along a broadcast dim the operand keeps its single element.
        if (size == fullType.getDimSize(offset + d)) {
          start = starts[offset + d];
          end = ends[offset + d];
          step = steps[offset + d];
        }
        plan.starts.push_back(start);
        plan.ends.push_back(end);
        plan.steps.push_back(step);
        plan.shape.push_back((end - start + step - 1) / step);
        plan.identity &= start == 0 && end == size && (step == 1 || size <= 1);
      }
      SmallVector<int64_t> next;
      if (!broadcastShapes(resultShape, plan.shape, next))
        return failure();
      resultShape = std::move(next);
    }
    // Holds for well-formed broadcasting; checked before touching the IR.
    if (ArrayRef<int64_t>(resultShape) != slice.getType().getShape())
      return failure();

    IRMapping mapping;
    for (auto [operand, plan] : llvm::zip(producer->getOperands(), plans)) {
      if (plan.identity || mapping.contains(operand))
        continue;
      mapping.map(operand, SliceOp::create(rewriter, slice.getLoc(), operand,
                                           plan.starts, plan.ends, plan.steps)
                               .getResult());
    }
    Operation *sliced = rewriter.clone(*producer, mapping);
    // Cannot fail: the result shape was checked above.
    (void)inferAndSetResultTypes(sliced);
    rewriter.replaceOp(slice, sliced->getResults());
    return success();
  }
};

struct GraphReorderSlices
    : mlc::graph::impl::GraphReorderSlicesBase<GraphReorderSlices> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SliceBeforeElementwise>(&getContext());
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
