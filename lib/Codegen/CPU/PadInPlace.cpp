//===- PadInPlace.cpp - padded tensors without a fill-and-copy ------------===//
//
// A constant pad is `insert_slice %src into fill(%c, empty)`. Bufferized
// as is, it writes the whole padded buffer twice (fill, then copy) before a
// convolution reads it: for MobileNetV2 that was a fifth of the run time,
// all of it single-threaded. Here the fill shrinks to the border and the
// producer of %src writes into the interior directly.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlc {
#define GEN_PASS_DEF_PADINPLACE
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// A pad this pass can rewrite: `insert` puts its source into `fill`, a
/// constant fill of `empty` that nothing else reads.
struct Pad {
  tensor::InsertSliceOp insert;
  linalg::FillOp fill;
  tensor::EmptyOp empty;
  SmallVector<int64_t> offsets, sizes;
};

std::optional<Pad> matchPad(tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->hasOneUse() || fill.getNumDpsInits() != 1)
    return std::nullopt;
  auto empty = fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty->hasOneUse() ||
      !matchPattern(fill.getDpsInputs()[0], m_Constant()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(insert.getType());
  if (!type.hasStaticShape() ||
      insert.getSourceType().getRank() != type.getRank())
    return std::nullopt;
  std::optional<SmallVector<int64_t>> offsets =
      getConstantIntValues(insert.getMixedOffsets());
  std::optional<SmallVector<int64_t>> sizes =
      getConstantIntValues(insert.getMixedSizes());
  if (!offsets || !sizes ||
      !areAllConstantIntValue(insert.getMixedStrides(), 1))
    return std::nullopt;
  return Pad{insert, fill, empty, *offsets, *sizes};
}

/// Builds, at the rewriter's insertion point, a tensor of the pad's type
/// whose border (everything outside the inserted slice) holds the fill
/// value and whose interior is undefined. Dimension d's two border slabs
/// span the interior along the dimensions before d and everything along
/// those after it, so the slabs cover the border once.
Value buildBorder(RewriterBase &rewriter, Pad &pad, DominanceInfo &dominance) {
  Location loc = pad.fill.getLoc();
  auto type = cast<RankedTensorType>(pad.insert.getType());
  ArrayRef<int64_t> shape = type.getShape();
  // The fill value is a constant; the border may be built before it.
  Value value = pad.fill.getDpsInputs()[0];
  Operation *ip = &*rewriter.getInsertionPoint();
  if (!dominance.properlyDominates(value, ip))
    value = rewriter.clone(*value.getDefiningOp())->getResult(0);
  // Not tensor.empty: CSE would merge two pads of one shape into one
  // tensor that both producers write, and bufferization would copy it.
  Value acc =
      bufferization::AllocTensorOp::create(rewriter, loc, type, ValueRange{});
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t low = pad.offsets[d];
    int64_t high = shape[d] - pad.offsets[d] - pad.sizes[d];
    for (auto [start, extent] :
         {std::pair{int64_t(0), low}, std::pair{low + pad.sizes[d], high}}) {
      if (extent <= 0)
        continue;
      SmallVector<OpFoldResult> offs, sizes;
      SmallVector<int64_t> slabShape;
      for (int64_t j = 0; j < rank; ++j) {
        int64_t o = j < d ? pad.offsets[j] : j == d ? start : 0;
        int64_t s = j < d ? pad.sizes[j] : j == d ? extent : shape[j];
        offs.push_back(rewriter.getIndexAttr(o));
        sizes.push_back(rewriter.getIndexAttr(s));
        slabShape.push_back(s);
      }
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      Value slab = tensor::ExtractSliceOp::create(rewriter, loc, acc, offs,
                                                  sizes, strides);
      Value filled =
          linalg::FillOp::create(rewriter, loc, value, slab).getResult(0);
      acc = tensor::InsertSliceOp::create(rewriter, loc, filled, acc, offs,
                                          sizes, strides);
    }
  }
  return acc;
}

struct PadInPlace : mlc::impl::PadInPlaceBase<PadInPlace> {
  void runOnOperation() override {
    SmallVector<Pad> pads;
    getOperation().walk([&](tensor::InsertSliceOp insert) {
      if (std::optional<Pad> pad = matchPad(insert))
        pads.push_back(*pad);
    });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    for (Pad &pad : pads) {
      // The source's kernel writes into the interior when its buffer can
      // be traced to an empty tensor in the pad's block (so the border,
      // built just before that empty, dominates the insert).
      tensor::EmptyOp root = mlc::codegen::findDestinationRoot(pad.insert.getSource());
      if (root && (root->getBlock() != pad.insert->getBlock() ||
                   root.getType() != pad.insert.getSourceType()))
        root = {};
      rewriter.setInsertionPoint(root ? root.getOperation()
                                      : pad.fill.getOperation());
      Value border = buildBorder(rewriter, pad, dominance);
      if (root) {
        Value interior = tensor::ExtractSliceOp::create(
            rewriter, root.getLoc(), pad.insert.getSourceType(), border,
            pad.insert.getMixedOffsets(), pad.insert.getMixedSizes(),
            pad.insert.getMixedStrides());
        rewriter.replaceOp(root, interior);
      }
      rewriter.modifyOpInPlace(
          pad.insert, [&] { pad.insert.getDestMutable().assign(border); });
      rewriter.eraseOp(pad.fill);
      rewriter.eraseOp(pad.empty);
    }
  }
};

} // namespace
