//===- LinalgToLoops.cpp - the remaining linalg ops as loops --------------===//
//
// After bufferization a model has a few linalg ops that no kernel schedule
// vectorized. Each becomes its scf.for loop nest here; MLIR's
// convert-linalg-to-loops does the same through a greedy rewrite with
// folding patterns over the whole function, which on a large entry
// function cost more than the conversion (0.27 s on DenseNet-121's, for
// three ops). The pipeline canonicalizes right after. With
// register-accumulators (CUDA), a reduction carries its outputs in scalars
// across its reduction loops instead of storing them at every step.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlc {
#define GEN_PASS_DEF_LINALGTOLOOPS
#include "mlc/Codegen/Common/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Whether `op` can keep its outputs in scalars across its reductions: it
/// has reduction loops, its outputs are indexed by parallel loops only, and
/// no output buffer is also an input.
bool canAccumulateInRegisters(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op->getNumRegions() != 1)
    return false;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!isa<MemRefType>(init.get().getType()))
      return false;
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation())
      return false;
    for (AffineExpr e : map.getResults())
      if (iters[cast<AffineDimExpr>(e).getPosition()] !=
          utils::IteratorType::parallel)
        return false;
    for (OpOperand *input : op.getDpsInputOperands())
      if (input->get() == init.get())
        return false;
  }
  return true;
}

/// The indices of `operand` of `op` at the loop indices `ivs` (all loops,
/// in op order).
SmallVector<Value> operandIndices(OpBuilder &b, Location loc,
                                  linalg::LinalgOp op, OpOperand &operand,
                                  ValueRange ivs) {
  std::optional<SmallVector<Value, 8>> indices =
      affine::expandAffineMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
  assert(indices && "indexing maps of linalg ops expand");
  return SmallVector<Value>(indices->begin(), indices->end());
}

/// Loads `operand` of `op` at `ivs`; a scalar operand is its own value.
Value loadOperand(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  OpOperand &operand, ValueRange ivs) {
  if (!isa<MemRefType>(operand.get().getType()))
    return operand.get();
  return memref::LoadOp::create(b, loc, operand.get(),
                                operandIndices(b, loc, op, operand, ivs));
}

/// Marks a float multiply or add contractible (into a fused multiply-add).
void allowContraction(Operation *op) {
  if (!isa<arith::MulFOp, arith::AddFOp>(op))
    return;
  auto fm = cast<arith::ArithFastMathInterface>(op);
  op->setAttr(fm.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(
                  op->getContext(), fm.getFastMathFlagsAttr().getValue() |
                                        arith::FastMathFlags::contract));
}

/// At most this many output elements of one op are unrolled into scalars
/// carried together (a GPU thread's block of outputs, mlc-form-gpu-kernels).
constexpr int64_t kMaxUnrolledOutputs = 16;

/// `op` as loops over its parallel dimensions around loops over its
/// reductions that carry the outputs' elements (loaded once before, stored
/// once after); float multiplies and adds of its body may contract. When
/// the parallel loops are static and make at most kMaxUnrolledOutputs
/// iterations, they are unrolled instead, all their outputs carried by one
/// reduction nest: an input that does not depend on them is loaded once per
/// step for all of them (after CSE).
void lowerWithRegisterAccumulators(RewriterBase &rewriter,
                                   linalg::LinalgOp op) {
  Location loc = op.getLoc();
  SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<unsigned> par, red;
  for (unsigned d = 0; d < iters.size(); ++d)
    (iters[d] == utils::IteratorType::parallel ? par : red).push_back(d);
  auto bounds = [&](ArrayRef<unsigned> dims, SmallVector<Value> &lbs,
                    SmallVector<Value> &ubs, SmallVector<Value> &steps) {
    for (unsigned d : dims) {
      lbs.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[d].offset));
      ubs.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[d].size));
      steps.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, ranges[d].stride));
    }
  };
  int64_t outputs = 1;
  for (unsigned d : par)
    outputs = ShapedType::isDynamic(sizes[d]) || outputs < 0
                  ? -1
                  : outputs * sizes[d];
  bool unroll = outputs > 1 && outputs <= kMaxUnrolledOutputs;
  SmallVector<Value> plb, pub, pstep, rlb, rub, rstep;
  if (!unroll)
    bounds(par, plb, pub, pstep);
  bounds(red, rlb, rub, rstep);
  Block &body = op->getRegion(0).front();
  unsigned numInits = op.getNumDpsInits();
  // Stands for the reduction dimensions where the outputs are indexed,
  // which their maps do not use.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);

  // The reductions of the output elements at each index set of `points`
  // (indices of all loops; those of the reductions unused).
  auto reduce = [&](OpBuilder &b, Location loc,
                    ArrayRef<SmallVector<Value>> points) {
    SmallVector<Value> inits;
    for (ArrayRef<Value> ivs : points)
      for (OpOperand &init : op.getDpsInitsMutable())
        inits.push_back(loadOperand(b, loc, op, init, ivs));
    scf::LoopNest nest = scf::buildLoopNest(
        b, loc, rlb, rub, rstep, inits,
        [&](OpBuilder &b, Location loc, ValueRange rivs,
            ValueRange accs) -> scf::ValueVector {
          scf::ValueVector results;
          for (auto [p, ivs] : llvm::enumerate(points)) {
            SmallVector<Value> all(ivs);
            for (auto [d, iv] : llvm::zip(red, rivs))
              all[d] = iv;
            IRMapping map;
            for (OpOperand *input : op.getDpsInputOperands())
              map.map(body.getArgument(input->getOperandNumber()),
                      loadOperand(b, loc, op, *input, all));
            for (unsigned i = 0; i < numInits; ++i)
              map.map(body.getArgument(op.getNumDpsInputs() + i),
                      accs[p * numInits + i]);
            for (Operation &inner : body.without_terminator()) {
              if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
                map.map(index.getResult(), all[index.getDim()]);
                continue;
              }
              allowContraction(b.clone(inner, map));
            }
            for (Value v : body.getTerminator()->getOperands())
              results.push_back(map.lookupOrDefault(v));
          }
          return results;
        });
    for (auto [p, ivs] : llvm::enumerate(points))
      for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
        memref::StoreOp::create(b, loc, nest.results[p * numInits + i],
                                init.get(),
                                operandIndices(b, loc, op, init, ivs));
  };

  if (unroll) {
    SmallVector<SmallVector<Value>> points;
    for (int64_t flat = 0; flat < outputs; ++flat) {
      SmallVector<Value> ivs(iters.size(), zero);
      int64_t rest = flat;
      for (unsigned d : llvm::reverse(par)) {
        ivs[d] = arith::ConstantIndexOp::create(rewriter, loc, rest % sizes[d]);
        rest /= sizes[d];
      }
      points.push_back(std::move(ivs));
    }
    reduce(rewriter, loc, points);
    return;
  }
  scf::buildLoopNest(rewriter, loc, plb, pub, pstep,
                     [&](OpBuilder &b, Location loc, ValueRange pivs) {
                       SmallVector<Value> ivs(iters.size(), zero);
                       for (auto [d, iv] : llvm::zip(par, pivs))
                         ivs[d] = iv;
                       reduce(b, loc, {ivs});
                     });
}

struct LinalgToLoops : mlc::impl::LinalgToLoopsBase<LinalgToLoops> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op->emitError("a linalg op on tensors after bufferization");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (registerAccumulators && canAccumulateInRegisters(op)) {
        lowerWithRegisterAccumulators(rewriter, op);
        rewriter.eraseOp(op);
        continue;
      }
      if (failed(linalg::linalgOpToLoops(rewriter, op))) {
        op->emitError("cannot lower this linalg op to loops");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
