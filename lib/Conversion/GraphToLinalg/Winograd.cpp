//===- Winograd.cpp - graph.winograd_input/output to linalg ---------------===//
//
// Each transform becomes one all-parallel generic over its result whose
// body sums the 36 terms of one element, the coefficients read from a
// constant [.., 36] table, the operand read with tensor.extract (see
// mlc/Conversion/WinogradGeneric.h). The CPU kernel replaces it by whole
// tiles computed separably; this form is the definition.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Winograd.h"
#include "LoweringUtils.h"
#include "mlc/Conversion/GraphToLinalg/WinogradGeneric.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::winograd;
using namespace mlc::lowering;

namespace {

/// The 36-term sums' coefficients as a [rows * rows, 36] table: row r of
/// kronSquare(m) (for the input transform r = xi * 6 + nu and the column
/// i * 6 + j with m = B^T; for the output r = a * 4 + b, column xi * 6 + nu,
/// m = A^T).
template <int64_t Rows>
Value coefficients(OpBuilder &b, Location loc,
                   const double (&m)[Rows][kAlpha]) {
  auto type = RankedTensorType::get({Rows * Rows, kPoints}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<float>(kronSquare(m))));
}

/// The marked generic over `type`; `element` builds one result element from
/// the result's indices.
Value markedGeneric(
    OpBuilder &b, Location loc, RankedTensorType type, StringRef kind,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> element) {
  int64_t rank = type.getRank();
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{}, emptyTensor(b, loc, type),
      ArrayRef<AffineMap>{
          AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange) {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(linalg::IndexOp::create(nb, l, d));
        linalg::YieldOp::create(nb, l, element(nb, l, idx));
      });
  generic->setAttr(kWinogradAttr, b.getStringAttr(kind));
  return generic.getResult(0);
}

Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// sum_q table[row, q] * read(q) over the 36 q.
Value dot36(OpBuilder &b, Location loc, Value table, Value row,
            function_ref<Value(int64_t)> read) {
  Value acc;
  for (int64_t q = 0; q < kPoints; ++q) {
    Value c = tensor::ExtractOp::create(b, loc, table,
                                        ValueRange{row, index(b, loc, q)});
    Value term = arith::MulFOp::create(b, loc, c, read(q));
    acc = q == 0 ? term : arith::AddFOp::create(b, loc, acc, term);
  }
  return acc;
}

struct WinogradInputPattern : OpRewritePattern<WinogradInputOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WinogradInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    Value table = coefficients(rewriter, loc, kBT);
    // Result [p, n, th, tw, cb, l] = sum_{i,j} table[p, i*6+j] *
    // x[n, cb, 4*th + i, 4*tw + j, l].
    rewriter.replaceOp(
        op, markedGeneric(
                rewriter, loc, op.getType(), "input",
                [&](OpBuilder &b, Location l, ArrayRef<Value> idx) {
                  return dot36(b, l, table, idx[0], [&](int64_t q) {
                    auto at = [&](Value t, int64_t off) -> Value {
                      return arith::AddIOp::create(
                          b, l, arith::MulIOp::create(b, l, t, index(b, l, 4)),
                          index(b, l, off));
                    };
                    return tensor::ExtractOp::create(
                        b, l, x,
                        ValueRange{idx[1], idx[4], at(idx[2], q / kAlpha),
                                   at(idx[3], q % kAlpha), idx[5]});
                  });
                }));
    return success();
  }
};

struct WinogradOutputPattern : OpRewritePattern<WinogradOutputOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WinogradOutputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value m = op.getInput();
    Value table = coefficients(rewriter, loc, kAT);
    // Result [n, kb, oh, ow, l] = sum_q table[(oh % 4) * 4 + ow % 4, q] *
    // m[q, n, oh / 4, ow / 4, kb, l].
    rewriter.replaceOp(
        op,
        markedGeneric(rewriter, loc, op.getType(), "output",
                      [&](OpBuilder &b, Location l, ArrayRef<Value> idx) {
                        Value four = index(b, l, 4);
                        Value a = arith::RemUIOp::create(b, l, idx[2], four);
                        Value c = arith::RemUIOp::create(b, l, idx[3], four);
                        Value row = arith::AddIOp::create(
                            b, l, arith::MulIOp::create(b, l, a, four), c);
                        Value th = arith::DivUIOp::create(b, l, idx[2], four);
                        Value tw = arith::DivUIOp::create(b, l, idx[3], four);
                        return dot36(b, l, table, row, [&](int64_t q) {
                          return tensor::ExtractOp::create(
                              b, l, m,
                              ValueRange{index(b, l, q), idx[0], th, tw, idx[1],
                                         idx[4]});
                        });
                      }));
    return success();
  }
};

} // namespace

std::optional<WinogradGeneric>
mlc::lowering::matchWinogradGeneric(linalg::GenericOp op) {
  auto kind = op->getAttrOfType<StringAttr>(kWinogradAttr);
  if (!kind || op.getNumDpsInits() != 1 || op.getNumDpsInputs() != 0 ||
      !op.hasPureTensorSemantics())
    return std::nullopt;
  WinogradGeneric w;
  w.isInput = kind.getValue() == "input";
  // The operand is the extracted tensor that is not the coefficient table.
  op.getBody()->walk([&](tensor::ExtractOp extract) {
    if (!extract.getTensor().getDefiningOp<arith::ConstantOp>()) {
      w.source = extract.getTensor();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!w.source)
    return std::nullopt;
  return w;
}

void mlc::lowering::populateWinogradPatterns(RewritePatternSet &patterns) {
  patterns.add<WinogradInputPattern, WinogradOutputPattern>(
      patterns.getContext());
}
