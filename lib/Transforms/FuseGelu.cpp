//===- FuseGelu.cpp - recognize GELU written out as elementwise ops ------===//
//
// ONNX before opset 20 has no Gelu, so exporters write it out:
//
//   0.5 * x * (1 + erf(x / sqrt(2)))                              (exact)
//   0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))       (tanh)
//
// with the three factors multiplied in any order and x/sqrt(2) as a
// division or as a product with 1/sqrt(2). One graph.gelu instead of five
// to nine ops: the division by sqrt(2) becomes a multiplication (a vdivps
// is the most expensive instruction of the kernel), and graph-fold-scale-
// into-matmul no longer pulls the 0.5 into the next weights, so the GELU is
// one op everywhere. Rounding differs slightly: inference only.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFUSEGELU
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// True if `v` is a float splat constant within 1e-6 (relative) of `want`:
/// exporters round sqrt(2) and friends to f32 or spell them to 7 digits.
bool isSplatNear(Value v, double want) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<FloatType>(attr.getElementType()))
    return false;
  double got = attr.getSplatValue<APFloat>().convertToDouble();
  return std::fabs(got - want) <= 1e-6 * std::fabs(want);
}

/// The operands of a commutative binary op in either order: calls `f(a, b)`
/// and then `f(b, a)` until one returns true.
template <typename OpTy, typename Fn> bool matchCommutative(Value v, Fn f) {
  auto op = v.getDefiningOp<OpTy>();
  return op && (f(op.getLhs(), op.getRhs()) || f(op.getRhs(), op.getLhs()));
}

/// v == x * c or x / (1 / c).
bool isScaled(Value v, Value x, double c) {
  if (auto div = v.getDefiningOp<DivOp>())
    return div.getLhs() == x && isSplatNear(div.getRhs(), 1.0 / c);
  return matchCommutative<MulOp>(
      v, [&](Value a, Value b) { return a == x && isSplatNear(b, c); });
}

/// v == x^3, as pow(x, 3), x * (x * x) or (x * x) * x.
bool isCube(Value v, Value x) {
  if (auto pow = v.getDefiningOp<PowOp>())
    return pow.getLhs() == x && isSplatNear(pow.getRhs(), 3.0);
  return matchCommutative<MulOp>(v, [&](Value a, Value b) {
    return a == x && matchCommutative<MulOp>(
                         b, [&](Value p, Value q) { return p == x && q == x; });
  });
}

/// v == sqrt(2/pi) * (x + 0.044715 * x^3), the tanh form's argument.
bool isTanhArgument(Value v, Value x) {
  return matchCommutative<MulOp>(v, [&](Value sum, Value c) {
    return isSplatNear(c, std::sqrt(2.0 / M_PI)) &&
           matchCommutative<AddOp>(sum, [&](Value a, Value cubic) {
             return a == x &&
                    matchCommutative<MulOp>(cubic, [&](Value cube, Value k) {
                      return isSplatNear(k, 0.044715) && isCube(cube, x);
                    });
           });
  });
}

/// If v == 1 + erf(x / sqrt 2) or 1 + tanh(...) for this x, each step used
/// only by the next, whether it is the tanh form.
std::optional<bool> matchOnePlusCdf(Value v, Value x) {
  std::optional<bool> tanhForm;
  if (!v.hasOneUse())
    return tanhForm;
  matchCommutative<AddOp>(v, [&](Value one, Value t) {
    if (!isSplatNear(one, 1.0) || !t.hasOneUse())
      return false;
    if (auto erf = t.getDefiningOp<ErfOp>();
        erf && erf.getInput().hasOneUse() &&
        isScaled(erf.getInput(), x, M_SQRT1_2))
      tanhForm = false;
    else if (auto tanh = t.getDefiningOp<TanhOp>();
             tanh && tanh.getInput().hasOneUse() &&
             isTanhArgument(tanh.getInput(), x))
      tanhForm = true;
    return tanhForm.has_value();
  });
  return tanhForm;
}

/// The factors of a product of three: (a * b) * c or a * (b * c), the inner
/// product used only here.
SmallVector<std::array<Value, 3>> threeFactorings(MulOp root) {
  SmallVector<std::array<Value, 3>> out;
  for (auto [inner, outer] : {std::pair(root.getLhs(), root.getRhs()),
                              std::pair(root.getRhs(), root.getLhs())}) {
    auto mul = inner.getDefiningOp<MulOp>();
    if (mul && inner.hasOneUse())
      out.push_back({mul.getLhs(), mul.getRhs(), outer});
  }
  return out;
}

struct FuseGeluPattern : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp root,
                                PatternRewriter &rewriter) const override {
    for (std::array<Value, 3> f : threeFactorings(root)) {
      // Any of the six orders of {x, 0.5, 1 + cdf(x)}.
      std::array<int, 3> order = {0, 1, 2};
      do {
        Value x = f[order[0]];
        if (x.getType() != root.getType() || !isSplatNear(f[order[1]], 0.5))
          continue;
        std::optional<bool> tanhForm = matchOnePlusCdf(f[order[2]], x);
        if (!tanhForm)
          continue;
        auto gelu = GeluOp::create(rewriter, root.getLoc(), x);
        if (*tanhForm)
          gelu.setTanhApproximation(true);
        rewriter.replaceOp(root, gelu.getResult());
        return success();
      } while (std::next_permutation(order.begin(), order.end()));
    }
    return failure();
  }
};

struct GraphFuseGelu : mlc::graph::impl::GraphFuseGeluBase<GraphFuseGelu> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseGeluPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
