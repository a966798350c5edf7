//===- ApproximateMath.cpp - inline polynomial math on f32 ----------------===//
//
// libm's scalar tanhf/expf/logf/erff calls dominated small CNNs (86% of
// LeNet-5's time went to tanhf) and cannot be vectorized. MLIR's
// polynomial approximations are inline, branch-free and work on vectors.
// Only functions whose approximations stay within a few ulp over the whole
// f32 range, inf, NaN and denormals included, are rewritten: log's flushes
// denormal inputs, so the log family keeps libm, as do sin, cos, atan...
// f32 erf is mlc's own rational function (ErfApproximation.cpp), a third
// of the cost of MLIR's.
//
//===----------------------------------------------------------------------===//

#include "MathApprox.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct ApproximateMath : mlc::impl::ApproximateMathBase<ApproximateMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mlc::populateRationalErfPatterns(patterns);
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) {
          name.consume_front("math.");
          return llvm::is_contained({"tanh", "exp", "expm1"}, name);
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
