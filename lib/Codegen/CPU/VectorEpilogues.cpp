//===- VectorEpilogues.cpp - a vector kernel and its epilogue -------------===//
//
// Helpers of the CPU vector kernels (contraction, resize, Winograd): finding
// a kernel's elementwise epilogue and replaying it on vectors.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

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

std::optional<mlc::codegen::KernelRoot>
mlc::codegen::matchKernelRoot(linalg::GenericOp root,
                              function_ref<bool(linalg::GenericOp)> isKernel) {
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
