//===- X86VnniDot.cpp - byte dot products as vpdpbusd ---------------------===//
//
// The integer matmul kernel's inner step is written as pure vector ops so
// that bufferization can reason about it (an llvm.call_intrinsic has
// unknown memory effects). After bufferization this pass recognizes
//
//   multi_reduction<add>(shape_cast<16x4>(muli(extui(x), extsi(w))), acc)
//
// with x, w : vector<64xi8>, acc : vector<16xi32>, and emits the AVX-512
// VNNI instruction that computes exactly that (4 uint8 x int8 products
// summed into each int32 lane, wrapping).
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_X86VNNIDOT
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// `v` as the vector<64xi8> that `Ext` widens, or null.
template <typename Ext> Value bytesOf(Value v) {
  auto ext = v.getDefiningOp<Ext>();
  auto type = ext ? dyn_cast<VectorType>(ext.getIn().getType()) : nullptr;
  if (!type || type.getShape() != ArrayRef<int64_t>{64} ||
      !type.getElementType().isInteger(8))
    return {};
  return ext.getIn();
}

struct VnniDotPattern : OpRewritePattern<vector::MultiDimReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(op.getAcc().getType());
    if (op.getKind() != vector::CombiningKind::ADD ||
        op.getReductionDims() != ArrayRef<int64_t>{1} || !accType ||
        accType.getShape() != ArrayRef<int64_t>{16} ||
        !accType.getElementType().isInteger(32))
      return failure();
    auto cast = op.getSource().getDefiningOp<vector::ShapeCastOp>();
    auto mul = cast ? cast.getSource().getDefiningOp<arith::MulIOp>()
                    : arith::MulIOp();
    if (!mul ||
        cast.getResultVectorType().getShape() != ArrayRef<int64_t>{16, 4})
      return failure();
    Value x = bytesOf<arith::ExtUIOp>(mul.getLhs());
    Value w = bytesOf<arith::ExtSIOp>(mul.getRhs());
    if (!x || !w)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, accType, rewriter.getStringAttr("llvm.x86.avx512.vpdpbusd.512"),
        ValueRange{op.getAcc(), x, w});
    return success();
  }
};

struct X86VnniDot : mlc::impl::X86VnniDotBase<X86VnniDot> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<VnniDotPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
