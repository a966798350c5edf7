//===- KernelUtils.cpp - helpers shared by the kernel schedules ----------===//
//
// Used by the CPU (lib/Codegen/CPU) and CUDA (lib/Codegen/CUDA) schedules.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/KernelUtils.h"
#include "mlc/Conversion/GraphToLinalg/ResizeGeneric.h"
#include "mlc/Conversion/GraphToLinalg/WinogradGeneric.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;

std::optional<SmallVector<int64_t>> mlc::codegen::linearForm(AffineExpr e,
                                                             unsigned numDims) {
  bool hasSymbol = false;
  e.walk([&](AffineExpr sub) { hasSymbol |= isa<AffineSymbolExpr>(sub); });
  if (hasSymbol)
    return std::nullopt;
  SimpleAffineExprFlattener flattener(numDims, /*numSymbols=*/0);
  if (failed(flattener.walkPostOrder(e)) || flattener.numLocals != 0)
    return std::nullopt;
  // [dims..., constant] once there are no symbols or locals.
  ArrayRef<int64_t> flat = flattener.operandExprStack.back();
  return SmallVector<int64_t>(flat.begin(), flat.end());
}

bool mlc::codegen::worthThreads(ArrayRef<int64_t> tripCounts, int64_t minWork) {
  if (minWork <= 0)
    return false;
  int64_t work = 1;
  for (int64_t n : tripCounts)
    work *= std::max<int64_t>(n, 1);
  return work >= minWork;
}

void mlc::codegen::inlineGroup(RewriterBase &rewriter,
                               mlc::graph::FusionGroupOp group) {
  Block &body = group.getBody().front();
  auto yield = cast<mlc::graph::YieldOp>(body.getTerminator());
  // A yielded block argument (an op that folded to its input) stands for
  // the corresponding group input once the block is gone.
  SmallVector<Value> results;
  for (Value v : yield.getOperands()) {
    auto arg = dyn_cast<BlockArgument>(v);
    results.push_back(arg && arg.getOwner() == &body
                          ? group.getInputs()[arg.getArgNumber()]
                          : v);
  }
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, group, group.getInputs());
  rewriter.replaceOp(group, results);
}

FrozenRewritePatternSet
mlc::codegen::singleUseElementwiseFusion(MLIRContext *ctx) {
  RewritePatternSet fusion(ctx);
  // A resize or a Winograd transform stays an op of its own: its kernel
  // takes the consumers as an epilogue (ResizeKernel.cpp, WinogradKernel.cpp).
  linalg::populateElementwiseOpsFusionPatterns(fusion, [](OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    return operand->get().hasOneUse() &&
           !(producer && (producer->hasAttr(mlc::lowering::kResizeAxesAttr) ||
                          producer->hasAttr(mlc::lowering::kWinogradAttr)));
  });
  // A grouped convolution is computed as [N, G, O/G, OH, OW] and collapsed
  // to [N, O, OH, OW]; its elementwise epilogue moves above the collapse
  // (computed in the grouped shape) so that it fuses with the convolution.
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      fusion, [](OpOperand *operand) {
        auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
        return collapse && collapse->hasOneUse() &&
               collapse.getSrc().getDefiningOp<linalg::GenericOp>();
      });
  return FrozenRewritePatternSet(std::move(fusion));
}

LogicalResult
mlc::codegen::tileAndFuseInPlace(RewriterBase &rewriter, TilingInterface op,
                                 const scf::SCFTileAndFuseOptions &options,
                                 StringRef error) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(result))
    return op->emitError(error);
  for (OpResult res : op->getResults())
    if (Value repl = result->replacements.lookup(res))
      rewriter.replaceAllUsesWith(res, repl);
  return success();
}

tensor::EmptyOp mlc::codegen::findDestinationRoot(Value v) {
  while (v.hasOneUse()) {
    auto result = dyn_cast<OpResult>(v);
    if (!result)
      return {};
    Operation *op = result.getOwner();
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return empty;
    if (auto forall = dyn_cast<scf::ForallOp>(op)) {
      v = forall.getTiedOpOperand(result)->get();
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      v = loop.getInitsMutable()[result.getResultNumber()].get();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      if (!dps.hasPureTensorSemantics())
        return {};
      v = dps.getTiedOpOperand(result)->get();
    } else {
      return {};
    }
  }
  return {};
}

arith::ConstantOp mlc::codegen::groupConstant(graph::FusionGroupOp group,
                                              Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == &group.getBody().front())
    v = group.getInputs()[arg.getArgNumber()];
  return v.getDefiningOp<arith::ConstantOp>();
}

std::optional<mlc::graph::HostTensor>
mlc::codegen::groupConstantTensor(mlc::graph::FusionGroupOp group, Value v) {
  arith::ConstantOp cst = groupConstant(group, v);
  auto attr = cst ? dyn_cast<ElementsAttr>(cst.getValue()) : ElementsAttr();
  if (!attr)
    return std::nullopt;
  FailureOr<mlc::graph::HostTensor> t = mlc::graph::fromElementsAttr(attr);
  if (failed(t))
    return std::nullopt;
  return std::move(*t);
}

Value mlc::codegen::forallOverSlices(OpBuilder &b, Location loc, Value dest,
                                     unsigned dim, int64_t extent,
                                     function_ref<Value(Value, Value)> body,
                                     int64_t block) {
  assert(extent % block == 0 && "slices of whole blocks");
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(extent / block)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)}, ValueRange{dest},
      std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value iv = forall.getInductionVars()[0];
  if (block != 1)
    iv = applyFolded(b, loc, b.getAffineDimExpr(0) * block, iv);
  auto destType = cast<RankedTensorType>(dest.getType());
  SmallVector<OpFoldResult> offsets(destType.getRank(), b.getIndexAttr(0)),
      sizes, strides(destType.getRank(), b.getIndexAttr(1));
  for (int64_t s : destType.getShape())
    sizes.push_back(b.getIndexAttr(s));
  offsets[dim] = iv;
  sizes[dim] = b.getIndexAttr(block);
  Value shared = forall.getRegionIterArgs()[0];
  Value slice =
      tensor::ExtractSliceOp::create(b, loc, shared, offsets, sizes, strides);
  Value result = body(iv, slice);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, result, shared, offsets, sizes,
                                        strides);
  return forall.getResult(0);
}

Value mlc::codegen::applyFolded(OpBuilder &b, Location loc, AffineExpr e,
                                ValueRange operands) {
  return getValueOrCreateConstantIndexOp(
      b, loc,
      affine::makeComposedFoldedAffineApply(
          b, loc, AffineMap::get(operands.size(), 0, e),
          getAsOpFoldResult(operands)));
}
