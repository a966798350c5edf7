//===- LinalgToLoops.cpp - the remaining linalg ops as loops
//---------------===//
//
// After bufferization a model has a few linalg ops that no kernel schedule
// vectorized. Each becomes its scf.for loop nest here; MLIR's
// convert-linalg-to-loops does the same through a greedy rewrite with
// folding patterns over the whole function, which on a large entry
// function cost more than the conversion (0.27 s on DenseNet-121's, for
// three ops). The pipeline canonicalizes right after.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlc {
#define GEN_PASS_DEF_LINALGTOLOOPS
#include "mlc/Codegen/Common/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct LinalgToLoops : mlc::impl::LinalgToLoopsBase<LinalgToLoops> {
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
      if (failed(linalg::linalgOpToLoops(rewriter, op))) {
        op->emitError("cannot lower this linalg op to loops");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
