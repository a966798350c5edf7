//===- GraphToLinalg.cpp - the convert-graph-to-linalg pass ---------------===//

#include "LoweringUtils.h"
#include "mlc/Conversion/GraphToLinalg/Passes.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlc {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALG
#include "mlc/Conversion/GraphToLinalg/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct ConvertGraphToLinalg
    : mlc::impl::ConvertGraphToLinalgBase<ConvertGraphToLinalg> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<mlc::graph::GraphDialect>();
    // Kernel boundaries survive; mlc-lower-fusion-groups consumes them.
    target.addLegalOp<mlc::graph::FusionGroupOp, mlc::graph::YieldOp>();
    // Views of ui8 values as i8 (Signless.cpp), removed after the patterns.
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect>();
    RewritePatternSet patterns(ctx);
    mlc::lowering::populateElementwisePatterns(patterns);
    mlc::lowering::populateContractionPatterns(patterns);
    mlc::lowering::populateNormalizationPatterns(patterns);
    mlc::lowering::populateDataMovementPatterns(patterns);
    mlc::lowering::populateUpsamplingPatterns(patterns);
    mlc::lowering::populateWinogradPatterns(patterns);
    mlc::lowering::populateQuantizationPatterns(patterns);
    mlc::lowering::populateIntegerContractionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    mlc::lowering::makeIntegersSignless(getOperation());
  }
};
} // namespace
