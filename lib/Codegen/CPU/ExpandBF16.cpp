//===- ExpandBF16.cpp - bf16 <-> f32 conversions as integer ops -----------===//
//
// bf16 arithmetic is emulated in f32 (arith-emulate-unsupported-floats), which
// leaves conversions between bf16 and f32. LLVM turns f32 -> bf16 into a call
// to __truncsfbf2 on CPUs without bf16 conversion instructions, a libgcc
// helper that older toolchains lack; expand both directions to shifts and
// adds (upstream's arith bf16 expansion) so a model.so needs no helper.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_EXPANDBF16
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct ExpandBF16 : mlc::impl::ExpandBF16Base<ExpandBF16> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
