//===- UntieEmptyTensors.cpp - one tensor.empty per use
//--------------------===//
//
// CSE makes equal tensor.empty ops one value; the kernels of one shape
// (scf.forall nests of lowered fusion groups) then all start from it. One-shot
// bufferization makes them aliases: one buffer, live from the first kernel
// to the last, and a conflict analysis over the whole alias set. A
// tensor.empty has no contents, so each kernel may have its own. Other uses
// keep sharing: an unfused elementwise chain writes in place of itself and
// ends in the out-param.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlc {
#define GEN_PASS_DEF_UNTIEEMPTYTENSORS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct UntieEmptyTensors : mlc::impl::UntieEmptyTensorsBase<UntieEmptyTensors> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> shared;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (llvm::count_if(op->getUsers(), llvm::IsaPred<scf::ForallOp>) &&
          !op->hasOneUse())
        shared.push_back(op);
    });
    for (tensor::EmptyOp op : shared) {
      // Each use's op in the block of the tensor.empty (the use itself, or
      // the op whose region holds it); uses in other blocks sort last.
      Block *block = op->getBlock();
      auto anchor = [&](OpOperand *use) {
        return block->findAncestorOpInBlock(*use->getOwner());
      };
      auto uses =
          llvm::map_to_vector(op->getUses(), [](OpOperand &u) { return &u; });
      llvm::stable_sort(uses, [&](OpOperand *a, OpOperand *b) {
        Operation *x = anchor(a), *y = anchor(b);
        if (!x || !y)
          return x && !y;
        return x == y ? a->getOperandNumber() < b->getOperandNumber()
                      : x->isBeforeInBlock(y);
      });
      // The first use keeps the original; every other kernel gets a clone
      // just before it (or after the original when in another block).
      OpBuilder b(op->getContext());
      for (OpOperand *use : llvm::drop_begin(uses)) {
        if (!isa<scf::ForallOp>(use->getOwner()))
          continue;
        if (Operation *at = anchor(use))
          b.setInsertionPoint(at);
        else
          b.setInsertionPointAfter(op);
        use->set(b.clone(*op)->getResult(0));
      }
    }
  }
};
} // namespace
