//===- ConcatInPlace.cpp - concatenated tensors without copies ------------===//
//
// A concatenation lowers to a chain of `insert_slice`s into a tensor.empty.
// Bufferized as is, every input is computed into a buffer of its own and
// then copied into its slice of the result: Inception's and GoogLeNet's
// branches, SqueezeNet's expand convolutions and a UNet's skip connections
// all write their activations twice. Here the kernel computing each input
// writes into its slice of the concatenation directly.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_CONCATINPLACE
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

bool isPlainInsert(tensor::InsertSliceOp insert) {
  return insert.getSourceType().getRank() == insert.getType().getRank() &&
         insert.getType().hasStaticShape() &&
         getConstantIntValues(insert.getMixedOffsets()) &&
         getConstantIntValues(insert.getMixedSizes()) &&
         areAllConstantIntValue(insert.getMixedStrides(), 1);
}

/// `insert_slice`s with static offsets and sizes, unit strides and no rank
/// change, each into the result of the one before (its only use), the
/// first into `base`: a tensor.empty, or the interior of a padded tensor
/// that mlc-pad-in-place made of it.
struct Chain {
  Value base;
  SmallVector<tensor::InsertSliceOp> inserts;
};

std::optional<Chain> matchChain(tensor::InsertSliceOp first) {
  Value base = first.getDest();
  Operation *def = base.getDefiningOp();
  if (!base.hasOneUse() || !def ||
      !isa<tensor::EmptyOp, tensor::ExtractSliceOp>(def))
    return std::nullopt;
  Chain chain{base, {}};
  Value v = base;
  while (v.hasOneUse()) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(*v.getUsers().begin());
    if (!insert || insert.getDest() != v || !isPlainInsert(insert))
      break;
    chain.inserts.push_back(insert);
    v = insert.getResult();
  }
  // One insert into a part of a tensor is no concatenation.
  if (chain.inserts.size() < 2)
    return std::nullopt;
  return chain;
}

/// Moves the ops `v` is computed from in `block` (constants, the fills and
/// slices of a padded tensor's border) in front of `point`; false, changing
/// nothing, if one of them has side effects.
bool hoistBefore(Value v, Operation *point) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) {
    return op->getBlock() == point->getBlock() && point->isBeforeInBlock(op);
  };
  if (Operation *def = v.getDefiningOp();
      def && def->getBlock() == point->getBlock() &&
      point->isBeforeInBlock(def)) {
    if (failed(getBackwardSlice(def, &slice, options)))
      return false;
    slice.insert(def);
  }
  for (Operation *op : slice)
    if (!isMemoryEffectFree(op) && !isa<bufferization::AllocTensorOp>(op))
      return false;
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    op->moveBefore(point);
  return true;
}

struct ConcatInPlace : mlc::impl::ConcatInPlaceBase<ConcatInPlace> {
  void runOnOperation() override {
    SmallVector<Chain> chains;
    getOperation().walk([&](tensor::InsertSliceOp insert) {
      if (std::optional<Chain> chain = matchChain(insert))
        chains.push_back(*chain);
    });
    IRRewriter rewriter(&getContext());
    for (Chain &chain : chains)
      rewrite(rewriter, chain);
  }

  /// Rebuilds the chain in the order the inputs are computed: each kernel
  /// that can write into its slice gets it as a slice of the chain so far,
  /// and its insert follows it at once, so that bufferization sees the
  /// usual extract/compute/insert of one subset and keeps all of them in
  /// one buffer. The other inputs are copied in at the end.
  void rewrite(IRRewriter &rewriter, Chain &chain) {
    tensor::InsertSliceOp last = chain.inserts.back();
    Block *block = last->getBlock();
    struct Input {
      tensor::InsertSliceOp insert;
      tensor::EmptyOp root;
    };
    SmallVector<Input> inputs;
    for (tensor::InsertSliceOp insert : chain.inserts) {
      tensor::EmptyOp root =
          mlc::codegen::findDestinationRoot(insert.getSource());
      if (root && (root->getBlock() != block ||
                   root.getType() != insert.getSourceType()))
        root = {};
      inputs.push_back({insert, root});
    }
    SmallVector<Input *> inPlace;
    for (Input &in : inputs)
      if (in.root)
        inPlace.push_back(&in);
    llvm::sort(inPlace, [](Input *a, Input *b) {
      return a->root->isBeforeInBlock(b->root);
    });
    // Kernels run one after another: one whose tensor is created before the
    // previous one's result exists cannot take its slice from the chain.
    SmallVector<Input *> chosen;
    for (Input *in : inPlace) {
      if (!chosen.empty() && !chosen.back()
                                  ->insert.getSource()
                                  .getDefiningOp()
                                  ->isBeforeInBlock(in->root))
        continue;
      chosen.push_back(in);
    }
    if (chosen.empty() || !hoistBefore(chain.base, chosen.front()->root))
      return;
    Value current = chain.base;
    if (auto empty = current.getDefiningOp<tensor::EmptyOp>()) {
      // Not tensor.empty: CSE would merge two concatenations of one shape
      // into one tensor that both sets of producers write.
      rewriter.setInsertionPoint(empty);
      current = bufferization::AllocTensorOp::create(
          rewriter, empty.getLoc(), empty.getType(), ValueRange{});
    }
    auto insertInto = [&](tensor::InsertSliceOp insert, Value source) {
      return tensor::InsertSliceOp::create(
                 rewriter, insert.getLoc(), source, current,
                 insert.getMixedOffsets(), insert.getMixedSizes(),
                 insert.getMixedStrides())
          .getResult();
    };
    for (Input *in : chosen) {
      rewriter.setInsertionPoint(in->root);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, in->root.getLoc(), in->insert.getSourceType(), current,
          in->insert.getMixedOffsets(), in->insert.getMixedSizes(),
          in->insert.getMixedStrides());
      rewriter.replaceOp(in->root, slice);
      Value source = in->insert.getSource();
      rewriter.setInsertionPointAfter(source.getDefiningOp());
      current = insertInto(in->insert, source);
    }
    rewriter.setInsertionPoint(last);
    for (Input &in : inputs)
      if (!llvm::is_contained(chosen, &in))
        current = insertInto(in.insert, in.insert.getSource());
    rewriter.replaceAllUsesWith(last.getResult(), current);
    for (tensor::InsertSliceOp insert : llvm::reverse(chain.inserts))
      rewriter.eraseOp(insert);
    if (Operation *base = chain.base.getDefiningOp(); base && base->use_empty())
      rewriter.eraseOp(base);
  }
};

} // namespace
