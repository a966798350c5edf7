//===- HoistLoopBuffers.cpp - loop bodies' buffers allocated once ---------===//
//
// MLIR's buffer-loop-hoisting builds a Liveness of the whole function to
// find where in the target block a hoisted allocation goes. Out of a loop,
// that is always just before the loop (the outermost one it leaves): its
// value is defined inside. This pass makes the same moves with what they
// need: where the allocation's aliases live (BufferViewFlowAnalysis) and
// where its dynamic sizes are defined.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/IR/Dominance.h"

namespace mlc {
#define GEN_PASS_DEF_HOISTLOOPBUFFERS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The block that the allocation must stay in or below: the innermost block
/// defining one of its operands (a dynamic size), or null.
Block *dependencyBlock(Operation *alloc, DominanceInfo &dominance) {
  Block *deepest = nullptr;
  for (Value operand : alloc->getOperands()) {
    Block *block = operand.getParentBlock();
    if (!deepest || dominance.dominates(deepest, block))
      deepest = block;
  }
  return deepest;
}

/// Moves `alloc` out of the scf.for loops around it that it may leave.
void hoist(Operation *alloc, const BufferViewFlowAnalysis &aliases,
           DominanceInfo &dominance) {
  Value buffer = alloc->getResult(0);
  // Where the buffer and its aliases are defined and used: a loop whose
  // block this dominates passes the buffer from one iteration to the next.
  Block *aliasBlock = bufferization::findCommonDominator(
      buffer, aliases.resolve(buffer), dominance);
  if (!aliasBlock)
    return;
  Block *bound = dependencyBlock(alloc, dominance);
  Block *placement = alloc->getBlock();
  while (auto loop = dyn_cast_or_null<scf::ForOp>(placement->getParentOp())) {
    if ((bound && !dominance.properlyDominates(bound, placement)) ||
        dominance.dominates(aliasBlock, loop->getBlock()))
      break;
    placement = loop->getBlock();
  }
  if (placement != alloc->getBlock())
    alloc->moveBefore(placement->findAncestorOpInBlock(*alloc));
}

struct HoistLoopBuffers : mlc::impl::HoistLoopBuffersBase<HoistLoopBuffers> {
  using Base::Base;

  void runOnOperation() override {
    // MLIR's order: allocs, then allocas, each in program order.
    SmallVector<Operation *> allocs, allocas;
    getOperation().walk([&](Operation *op) {
      if (!isa_and_nonnull<scf::ForOp>(op->getParentOp()))
        return;
      if (isa<memref::AllocOp>(op))
        allocs.push_back(op);
      else if (isa<memref::AllocaOp>(op))
        allocas.push_back(op);
    });
    if (allocs.empty() && allocas.empty())
      return markAllAnalysesPreserved();
    BufferViewFlowAnalysis aliases(getOperation());
    DominanceInfo dominance(getOperation());
    for (Operation *alloc : allocs)
      hoist(alloc, aliases, dominance);
    for (Operation *alloca : allocas)
      hoist(alloca, aliases, dominance);
  }
};

} // namespace
