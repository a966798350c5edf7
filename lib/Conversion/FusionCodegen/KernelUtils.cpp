//===- KernelUtils.cpp - helpers shared by the kernel schedules ----------===//

#include "KernelSchedules.h"
#include "mlc/Conversion/ResizeGeneric.h"
#include "mlc/Conversion/WinogradGeneric.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IRMapping.h"
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

Value mlc::codegen::replayOnVectors(OpBuilder &b, Location loc, Block &body,
                                    ArrayRef<Value> args, int64_t lanes) {
  IRMapping map;
  for (auto [k, v] : llvm::enumerate(args))
    map.map(body.getArgument(k), v);
  for (Operation &op : body.without_terminator()) {
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto t = VectorType::get({lanes}, c.getType());
      map.map(c.getResult(),
              arith::ConstantOp::create(
                  b, loc, DenseElementsAttr::get(t, c.getValue())));
      continue;
    }
    // Values from outside the body are the same in every lane.
    for (Value operand : op.getOperands())
      if (!map.contains(operand)) {
        auto t = VectorType::get({lanes}, operand.getType());
        map.map(operand, vector::BroadcastOp::create(b, loc, t, operand));
      }
    Operation *clone = b.clone(op, map);
    for (Value r : clone->getResults())
      r.setType(VectorType::get({lanes}, r.getType()));
  }
  return map.lookup(body.getTerminator()->getOperand(0));
}

bool mlc::codegen::isVectorizableEpilogue(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  if (!op.getIndexingMapsArray().back().isIdentity())
    return false;
  if (!op.getRegion().front().getArguments().back().use_empty())
    return false;
  // Broadcast operands ([1, C, 1, 1] against NCHW) read index 0 along the
  // dims they lack: a scalar per vector, like an operand missing the dim.
  for (AffineMap m : op.getIndexingMapsArray())
    if (!m.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
        inner.getNumRegions() != 0 || inner.getNumResults() != 1)
      return false;
    for (Type t : inner.getResultTypes())
      if (!t.isIntOrIndexOrFloat() || t.isIndex())
        return false;
  }
  return true;
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

std::optional<mlc::codegen::KernelRoot> mlc::codegen::matchKernelRoot(
    linalg::GenericOp root, function_ref<bool(linalg::GenericOp)> isKernel) {
  if (isKernel(root))
    return KernelRoot{root, {}};
  if (!isVectorizableEpilogue(root))
    return std::nullopt;
  std::optional<KernelRoot> result;
  for (OpOperand *in : root.getDpsInputOperands()) {
    auto op = in->get().getDefiningOp<linalg::GenericOp>();
    if (!op || !isKernel(op))
      continue;
    // One kernel op, computed once: the epilogue reads it element by
    // element and nothing else does.
    if (result || !op->hasOneUse() ||
        !root.getMatchingIndexingMap(in).isIdentity())
      return std::nullopt;
    result = KernelRoot{op, root};
  }
  return result;
}

std::optional<SmallVector<mlc::codegen::EpilogueInput>>
mlc::codegen::epilogueInputs(linalg::GenericOp epilogue, Value result) {
  unsigned lastDim = epilogue.getNumLoops() - 1;
  SmallVector<EpilogueInput> inputs;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    if (in->get() == result) {
      inputs.push_back({});
      continue;
    }
    AffineMap m = epilogue.getMatchingIndexingMap(in);
    for (unsigned i = 0; i < m.getNumResults(); ++i)
      if (m.getResult(i).isFunctionOfDim(lastDim) && i + 1 != m.getNumResults())
        return std::nullopt;
    if (!isa<RankedTensorType>(in->get().getType()))
      return std::nullopt;
    inputs.push_back({in->get(), m});
  }
  return inputs;
}

Value mlc::codegen::readEpilogueInput(OpBuilder &b, Location loc,
                                      const EpilogueInput &in, ValueRange at,
                                      int64_t lanes, bool inBounds) {
  SmallVector<Value> idx;
  bool alongLanes = false;
  unsigned lastDim = at.size() - 1;
  for (AffineExpr e : in.map.getResults()) {
    alongLanes |= e.isFunctionOfDim(lastDim);
    idx.push_back(applyFolded(b, loc, e, at));
  }
  Type elt = cast<RankedTensorType>(in.tensor.getType()).getElementType();
  auto type = VectorType::get({lanes}, elt);
  if (!alongLanes)
    return vector::BroadcastOp::create(
        b, loc, type, tensor::ExtractOp::create(b, loc, in.tensor, idx));
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  return vector::TransferReadOp::create(b, loc, type, in.tensor, idx, pad,
                                        ArrayRef<bool>{inBounds});
}

std::optional<mlc::codegen::KernelRoot>
mlc::codegen::matchKernelRoot(graph::FusionGroupOp group,
                              function_ref<bool(linalg::GenericOp)> isKernel) {
  auto yield = cast<graph::YieldOp>(group.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  auto root = yield.getOperand(0).getDefiningOp<linalg::GenericOp>();
  if (!root)
    return std::nullopt;
  return matchKernelRoot(root, isKernel);
}

void mlc::codegen::replaceKernelRoot(RewriterBase &rewriter,
                                     const KernelRoot &kr,
                                     ArrayRef<int64_t> shape,
                                     function_ref<Value(Value)> emit) {
  linalg::GenericOp root = kr.epilogue ? kr.epilogue : kr.op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(root);
  Value dest =
      kr.epilogue ? root.getDpsInits()[0]
                  : Value(tensor::EmptyOp::create(
                        rewriter, root.getLoc(), shape, rewriter.getF32Type()));
  rewriter.replaceOp(root, emit(dest));
}

Value mlc::codegen::forallOverSlices(OpBuilder &b, Location loc, Value dest,
                                     unsigned dim, int64_t extent,
                                     function_ref<Value(Value, Value)> body) {
  auto forall =
      scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
                            ArrayRef<OpFoldResult>{b.getIndexAttr(extent)},
                            ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
                            ValueRange{dest}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value iv = forall.getInductionVars()[0];
  auto destType = cast<RankedTensorType>(dest.getType());
  SmallVector<OpFoldResult> offsets(destType.getRank(), b.getIndexAttr(0)),
      sizes, strides(destType.getRank(), b.getIndexAttr(1));
  for (int64_t s : destType.getShape())
    sizes.push_back(b.getIndexAttr(s));
  offsets[dim] = iv;
  sizes[dim] = b.getIndexAttr(1);
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
