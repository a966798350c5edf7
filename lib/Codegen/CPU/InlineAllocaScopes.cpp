//===- InlineAllocaScopes.cpp - drop alloca scopes without allocas --------===//
//
// convert-scf-to-openmp wraps every parallel loop body in a
// memref.alloca_scope. Its region must stay a single block, so
// convert-scf-to-cf cannot lower the loops inside it; and a scope that
// allocates nothing has no stack to release. Such scopes are inlined.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlc {
#define GEN_PASS_DEF_INLINEALLOCASCOPES
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

bool allocatesOnStack(memref::AllocaScopeOp scope) {
  // Pre-order, so that a nested scope (with allocas of its own) is skipped
  // before its body is visited.
  WalkResult r =
      scope.getBodyRegion().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<memref::AllocaScopeOp>(op) && op != scope)
          return WalkResult::skip(); // has its own scope
        if (isa<memref::AllocaOp>(op))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
  return r.wasInterrupted();
}

struct InlineAllocaScopes
    : mlc::impl::InlineAllocaScopesBase<InlineAllocaScopes> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp s) {
      if (!allocatesOnStack(s))
        scopes.push_back(s);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block &body = scope.getBodyRegion().front();
      auto ret = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
      SmallVector<Value> results(ret.getResults());
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(&body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};

} // namespace
