//===- GraphCanonicalize.cpp - graph op canonicalization patterns ---------===//
//
// Rewrites that hold for every input, so they run at any -O level above 0
// and for training as well as inference. What is deliberately *not* here
// (x*0 -> 0, inexact cast chains) is listed in docs/compiler.md.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlc::graph;

namespace {

/// The value of `v` if it is a constant whose elements are all equal.
/// dense_resource blobs (large weights) are never splats.
DenseElementsAttr getSplatConstant(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return {};
  return attr;
}

enum class Neutral { Zero, One };

bool isSplatOf(Value v, Neutral n) {
  DenseElementsAttr attr = getSplatConstant(v);
  if (!attr)
    return false;
  Type elt = attr.getElementType();
  if (isa<FloatType>(elt)) {
    APFloat f = attr.getSplatValue<APFloat>();
    // Either sign of zero: x + (-0) is exact; x + (+0) differs from x only
    // for x = -0 (the sum is +0), a sign-of-zero change we accept.
    return n == Neutral::Zero ? f.isZero() : f.isExactlyValue(1.0);
  }
  if (isa<IntegerType>(elt)) {
    APInt i = attr.getSplatValue<APInt>();
    return n == Neutral::Zero ? i.isZero() : i.isOne();
  }
  return false;
}

/// x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 -> x. Only when the constant does
/// not broadcast x to a larger shape: then x itself is not the result.
template <typename OpTy, Neutral N, bool Commutative>
struct DropNeutralOperand : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto tryReplace = [&](Value x, Value c) {
      if (x.getType() != op.getType() || !isSplatOf(c, N))
        return false;
      rewriter.replaceOp(op, x);
      return true;
    };
    if (tryReplace(op.getLhs(), op.getRhs()) ||
        (Commutative && tryReplace(op.getRhs(), op.getLhs())))
      return success();
    return failure();
  }
};

/// A splat constant operand of a broadcasting op only needs shape
/// [1, ..., 1] of the same rank (the op broadcasts it anyway): the constant
/// shrinks to one element and its loads become loop invariant. Only when the
/// other operands alone still give the op its result shape.
template <typename OpTy>
struct ShrinkSplatOperand : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = cast<RankedTensorType>(operand.get().getType());
      if (type.getNumElements() <= 1)
        continue;
      DenseElementsAttr splat = getSplatConstant(operand.get());
      if (!splat)
        continue;
      SmallVector<int64_t> shape(type.getRank(), 1);
      auto smallType = RankedTensorType::get(shape, type.getElementType());
      bool compatible = true;
      for (OpOperand &other : op->getOpOperands()) {
        if (&other == &operand)
          continue;
        SmallVector<int64_t> next;
        compatible &= broadcastShapes(
            shape, cast<RankedTensorType>(other.get().getType()).getShape(),
            next);
        shape = std::move(next);
      }
      if (!compatible || ArrayRef<int64_t>(shape) != resultType.getShape())
        continue;
      Value small = ConstantOp::create(rewriter, operand.get().getLoc(),
                                       splat.resizeSplat(smallType));
      rewriter.modifyOpInPlace(op, [&] { operand.set(small); });
      return success();
    }
    return failure();
  }
};

bool isIdentityPerm(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != (int64_t)i)
      return false;
  return true;
}

/// transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[i]]), or x when
/// that is the identity.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    ArrayRef<int64_t> p1 = inner.getPerm(), p2 = op.getPerm();
    SmallVector<int64_t> perm;
    for (int64_t p : p2)
      perm.push_back(p1[p]);
    if (isIdentityPerm(perm))
      rewriter.replaceOp(op, inner.getInput());
    else
      rewriter.replaceOpWithNewOp<TransposeOp>(op, inner.getInput(), perm);
    return success();
  }
};

/// A transpose that keeps the order of the dims larger than 1 moves no
/// data: it is x itself (identity perm, or same type) or a reshape, which
/// lowers to a view instead of a copy.
struct TransposeAsReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    int64_t last = -1;
    for (int64_t p : op.getPerm()) {
      if (inType.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    if (op.getType() == inType)
      rewriter.replaceOp(op, op.getInput());
    else
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getInput(),
                                             op.getType().getShape());
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x); reshape to the same type -> x.
struct SimplifyReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInput().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, inner.getInput(),
                                           op.getType().getShape());
    return success();
  }
};

/// A slice taking every element of every dim -> its input.
struct RemoveIdentitySlice : OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    if (inType != op.getType())
      return failure();
    for (int64_t d = 0; d < inType.getRank(); ++d) {
      int64_t size = inType.getDimSize(d);
      // Any step takes the single element of a size-1 dim.
      if (op.getStarts()[d] != 0 || op.getEnds()[d] != size ||
          (op.getSteps()[d] != 1 && size > 1))
        return failure();
    }
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// Whether every value of `from` converts to `to` exactly (so converting
/// back, or on to a third type, gives what converting directly would):
/// bool to anything (0/1), i32 to i64 (sign extension), ui32 to i64 or
/// ui64 (zero extension). i32 -> f32, i64 -> i32, i32 -> ui64 (to f32 it
/// would give 2^64 - 1 for -1) and f32 -> int lose values.
bool isExactConversion(Type from, Type to) {
  return from.isInteger(1) ||
         (from.isInteger(32) && to.isInteger(64) &&
          (from.isUnsignedInteger() || to.isSignlessInteger()));
}

/// cast(x, T) with x of element type T -> x;
/// cast(cast(x: A -> B), C) -> cast(x, C) (or x when C == A) when A -> B is
/// exact: e.g. i32 -> i64 -> i32, bool -> i32 -> bool, bool -> i32 -> f32.
struct SimplifyCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInput().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner)
      return failure();
    Value x = inner.getInput();
    Type a = cast<RankedTensorType>(x.getType()).getElementType();
    if (!isExactConversion(a, inner.getTo()))
      return failure();
    if (x.getType() == op.getType())
      rewriter.replaceOp(op, x);
    else
      rewriter.replaceOpWithNewOp<CastOp>(op, x, op.getTo());
    return success();
  }
};

} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<DropNeutralOperand<AddOp, Neutral::Zero, true>,
              ShrinkSplatOperand<AddOp>>(context);
}

void SubOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<DropNeutralOperand<SubOp, Neutral::Zero, false>,
              ShrinkSplatOperand<SubOp>>(context);
}

void MulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<DropNeutralOperand<MulOp, Neutral::One, true>,
              ShrinkSplatOperand<MulOp>>(context);
}

void DivOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<DropNeutralOperand<DivOp, Neutral::One, false>,
              ShrinkSplatOperand<DivOp>>(context);
}

void PowOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ShrinkSplatOperand<PowOp>>(context);
}

void MaxOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ShrinkSplatOperand<MaxOp>>(context);
}

void MinOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ShrinkSplatOperand<MinOp>>(context);
}

void CompareOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ShrinkSplatOperand<CompareOp>>(context);
}

void SelectOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<ShrinkSplatOperand<SelectOp>>(context);
}

void CastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<SimplifyCast>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes, TransposeAsReshape>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<SimplifyReshape>(context);
}

void SliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<RemoveIdentitySlice>(context);
}
