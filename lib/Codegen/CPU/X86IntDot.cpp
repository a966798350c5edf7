//===- X86IntDot.cpp - integer dot products as vpdpbusd or vpmaddwd -------===//
//
// The integer kernels' inner step is written as pure vector ops so that
// bufferization can reason about it (an llvm.call_intrinsic has unknown
// memory effects). After bufferization this pass recognizes
//
//   multi_reduction<add>(shape_cast<Lx4>(muli(extui(x), extsi(w))), acc)
//
// with x, w : vector<64xi8>, acc : vector<16xi32> (L = 16) and emits the
// AVX-512 VNNI instruction that computes exactly that (4 uint8 x int8
// products summed into each int32 lane, wrapping), and
//
//   multi_reduction<add>(shape_cast<Lx2>(muli(extsi(x), extsi(w))), acc)
//
// with x, w : vector<2Lxi16>, L = 8 or 16, as acc + vpmaddwd(x, w) (AVX2 or
// AVX-512BW: 2 int16 products per int32 lane; the only sum that wraps, two
// products of -2^15, wraps in both forms), and
//
//   multi_reduction<add>(shape_cast<Lx4>(muli(extui(x),
//                        min(max(extsi(w), -64), 64))), acc)
//
// with x, w : vector<4Lxi8> as acc + vpmaddwd(vpmaddubsw(x, w), 1): the
// clamp says that the int16 sums of two products cannot saturate.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlc {
#define GEN_PASS_DEF_X86INTDOT
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// `v` as the vector of `width`-bit integers that `Ext` widens (of
/// `elements` elements), or null.
template <typename Ext>
Value narrowOf(Value v, int64_t elements, unsigned width) {
  auto ext = v.getDefiningOp<Ext>();
  auto type = ext ? dyn_cast<VectorType>(ext.getIn().getType()) : nullptr;
  if (!type || type.getShape() != ArrayRef<int64_t>{elements} ||
      !type.getElementType().isInteger(width))
    return {};
  return ext.getIn();
}

/// `v` = min(max(extsi(w: vector<n x i8>), -64), 64) (splats): w, or null.
Value clampedBytes(Value v, int64_t elements) {
  auto isSplat = [](Value c, int64_t value) {
    DenseIntElementsAttr attr;
    return matchPattern(c, m_Constant(&attr)) && attr.isSplat() &&
           attr.getSplatValue<APInt>().getSExtValue() == value;
  };
  auto hi = v.getDefiningOp<arith::MinSIOp>();
  if (!hi || !isSplat(hi.getRhs(), 64))
    return {};
  auto lo = hi.getLhs().getDefiningOp<arith::MaxSIOp>();
  if (!lo || !isSplat(lo.getRhs(), -64))
    return {};
  return narrowOf<arith::ExtSIOp>(lo.getLhs(), elements, 8);
}

struct IntDotPattern : OpRewritePattern<vector::MultiDimReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  /// zext(x) * clamp(sext(w), -64, 64) in groups of 4:
  /// acc + vpmaddwd(vpmaddubsw(x, w), 1). The int16 sums of two products
  /// are within 2 * 255 * 64 < 2^15: no saturation.
  static LogicalResult narrowBytes(vector::MultiDimReductionOp op,
                                   arith::MulIOp mul, int64_t lanes,
                                   PatternRewriter &rewriter) {
    Value x = narrowOf<arith::ExtUIOp>(mul.getLhs(), 4 * lanes, 8);
    Value w = clampedBytes(mul.getRhs(), 4 * lanes);
    if (!x || !w)
      return failure();
    Location loc = op.getLoc();
    auto shorts = VectorType::get({2 * lanes}, rewriter.getI16Type());
    bool avx2 = lanes == 8;
    Value pairs =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, shorts,
            rewriter.getStringAttr(avx2 ? "llvm.x86.avx2.pmadd.ub.sw"
                                        : "llvm.x86.avx512.pmaddubs.w.512"),
            ValueRange{x, w})
            .getResult(0);
    Value ones = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(shorts, rewriter.getI16IntegerAttr(1)));
    Value sums =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, op.getAcc().getType(),
            rewriter.getStringAttr(avx2 ? "llvm.x86.avx2.pmadd.wd"
                                        : "llvm.x86.avx512.pmaddw.d.512"),
            ValueRange{pairs, ones})
            .getResult(0);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, op.getAcc(), sums);
    return success();
  }

  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(op.getAcc().getType());
    if (op.getKind() != vector::CombiningKind::ADD ||
        op.getReductionDims() != ArrayRef<int64_t>{1} || !accType ||
        accType.getRank() != 1 || !accType.getElementType().isInteger(32))
      return failure();
    int64_t lanes = accType.getDimSize(0);
    auto cast = op.getSource().getDefiningOp<vector::ShapeCastOp>();
    auto mul = cast ? cast.getSource().getDefiningOp<arith::MulIOp>()
                    : arith::MulIOp();
    if (!mul)
      return failure();
    ArrayRef<int64_t> groups = cast.getResultVectorType().getShape();
    if (groups == ArrayRef<int64_t>{16, 4} && lanes == 16) {
      Value x = narrowOf<arith::ExtUIOp>(mul.getLhs(), 64, 8);
      Value w = narrowOf<arith::ExtSIOp>(mul.getRhs(), 64, 8);
      if (x && w) {
        rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
            op, accType, rewriter.getStringAttr("llvm.x86.avx512.vpdpbusd.512"),
            ValueRange{op.getAcc(), x, w});
        return success();
      }
    }
    if (groups == ArrayRef<int64_t>{lanes, 4} && (lanes == 8 || lanes == 16))
      return narrowBytes(op, mul, lanes, rewriter);
    if (groups != ArrayRef<int64_t>{lanes, 2} || (lanes != 8 && lanes != 16))
      return failure();
    Value x = narrowOf<arith::ExtSIOp>(mul.getLhs(), 2 * lanes, 16);
    Value w = narrowOf<arith::ExtSIOp>(mul.getRhs(), 2 * lanes, 16);
    if (!x || !w)
      return failure();
    Value sums =
        LLVM::CallIntrinsicOp::create(
            rewriter, op.getLoc(), accType,
            rewriter.getStringAttr(lanes == 8 ? "llvm.x86.avx2.pmadd.wd"
                                              : "llvm.x86.avx512.pmaddw.d.512"),
            ValueRange{x, w})
            .getResult(0);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, op.getAcc(), sums);
    return success();
  }
};

struct X86IntDot : mlc::impl::X86IntDotBase<X86IntDot> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<IntDotPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
