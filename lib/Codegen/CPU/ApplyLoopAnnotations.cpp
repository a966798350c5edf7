//===- ApplyLoopAnnotations.cpp - loop hints from scf.for to llvm.br -----===//
//
// Kernels ask LLVM not to unroll some loops by putting a discardable
// `llvm.loop_annotation` attribute on the scf.for. convert-scf-to-cf keeps
// it on the loop's latch branch, but convert-cf-to-llvm leaves it there as
// a discardable attribute, which translation to LLVM IR ignores: only the
// branch's own `loop_annotation` becomes `!llvm.loop` metadata. This pass
// moves it there.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlc {
#define GEN_PASS_DEF_APPLYLOOPANNOTATIONS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAnnotation = "llvm.loop_annotation";

struct ApplyLoopAnnotations
    : mlc::impl::ApplyLoopAnnotationsBase<ApplyLoopAnnotations> {
  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      auto hint = op->getDiscardableAttr(kAnnotation);
      if (!hint)
        return;
      op->removeDiscardableAttr(kAnnotation);
      auto annotation = dyn_cast<LLVM::LoopAnnotationAttr>(hint);
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        br.setLoopAnnotationAttr(annotation);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        condBr.setLoopAnnotationAttr(annotation);
    });
  }
};

} // namespace
