//===- GroupTileWrites.cpp - chains of tile writes as a few 2-D writes ----===//
//
// A vectorized kernel writes its tile on tensors as a chain of 1-D
// vector.transfer_writes, each into the previous one's result. A partial
// write reads its destination too, so one-shot bufferization's conflict
// analysis compares every write of the chain with every read of it, and
// finding a read's definitions walks the chain again: the cube of the
// chain's length (25 ms for one 36-write Winograd input kernel; 1.7 of
// DenseNet-121's 2.1 s of bufferization). Writes that differ in one
// constant index only are gathered into one vector<G x V> and written by
// one 2-D transfer_write: the chain shrinks by up to G times.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <map>

namespace mlc {
#define GEN_PASS_DEF_GROUPTILEWRITES
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// A 1-D, unmasked, in-bounds write to the minor dim of a static tensor.
bool isTileWrite(vector::TransferWriteOp w) {
  auto type = dyn_cast<RankedTensorType>(w.getBase().getType());
  return type && type.hasStaticShape() && !w.getMask() &&
         w.getVectorType().getRank() == 1 &&
         w.getPermutationMap().isMinorIdentity() && w.getInBoundsValues()[0];
}

/// The chain's writes that start at `first`: each writes into the previous
/// one's result, its only use, in the same block.
SmallVector<vector::TransferWriteOp> chainFrom(vector::TransferWriteOp first) {
  SmallVector<vector::TransferWriteOp> chain = {first};
  while (true) {
    Value result = chain.back().getResult();
    if (!result.hasOneUse())
      break;
    auto next = dyn_cast<vector::TransferWriteOp>(*result.getUsers().begin());
    if (!next || next.getBase() != result || !isTileWrite(next) ||
        next->getBlock() != first->getBlock() ||
        next.getVectorType() != first.getVectorType())
      break;
    chain.push_back(next);
  }
  return chain;
}

/// The chain's index dims: the same value in every write, or constants.
/// Fails where a dim is neither, or where two writes may overlap.
LogicalResult constantIndices(MutableArrayRef<vector::TransferWriteOp> chain,
                              SmallVectorImpl<SmallVector<int64_t>> &indices,
                              SmallVectorImpl<bool> &isConstant) {
  unsigned rank = chain.front().getIndices().size();
  indices.assign(chain.size(), SmallVector<int64_t>(rank, 0));
  isConstant.assign(rank, true);
  for (unsigned d = 0; d < rank; ++d) {
    Value first = chain.front().getIndices()[d];
    bool shared = llvm::all_of(chain, [&](vector::TransferWriteOp w) {
      return w.getIndices()[d] == first;
    });
    for (auto [i, w] : llvm::enumerate(chain)) {
      std::optional<int64_t> c = getConstantIntValue(w.getIndices()[d]);
      if (!c && !shared)
        return failure();
      if (!c) {
        isConstant[d] = false;
        break;
      }
      indices[i][d] = *c;
    }
  }
  // Reordering writes is only sound when no two write the same element.
  int64_t width = chain.front().getVectorType().getNumElements();
  for (size_t i = 0; i < chain.size(); ++i)
    for (size_t j = i + 1; j < chain.size(); ++j) {
      bool overlap = true;
      for (unsigned d = 0; d + 1 < rank && overlap; ++d)
        overlap = !isConstant[d] || indices[i][d] == indices[j][d];
      if (overlap && isConstant[rank - 1])
        overlap = std::abs(indices[i][rank - 1] - indices[j][rank - 1]) < width;
      if (overlap)
        return failure();
    }
  return success();
}

/// Writes gathered into one 2-D write along `dim`: chain positions sorted
/// by their index in `dim`, consecutive from `base`.
struct Group {
  SmallVector<size_t> members;
  int64_t base = 0;
  size_t last = 0; // the latest chain position among the members
};

/// Groups along `dim`: writes equal in every other index, consecutive in
/// `dim`, at most `maxGroup` each.
SmallVector<Group> groupAlong(unsigned dim, ArrayRef<SmallVector<int64_t>> idx,
                              int64_t maxGroup) {
  std::map<SmallVector<int64_t>, SmallVector<size_t>> byRest;
  for (auto [i, index] : llvm::enumerate(idx)) {
    SmallVector<int64_t> rest(index);
    rest[dim] = 0;
    byRest[rest].push_back(i);
  }
  SmallVector<Group> groups;
  for (auto &entry : byRest) {
    SmallVector<size_t> &ids = entry.second;
    llvm::sort(ids,
               [&](size_t a, size_t b) { return idx[a][dim] < idx[b][dim]; });
    for (size_t k = 0; k < ids.size(); ++k) {
      if (k == 0 || int64_t(groups.back().members.size()) == maxGroup ||
          idx[ids[k]][dim] != idx[ids[k - 1]][dim] + 1) {
        groups.emplace_back();
        groups.back().base = idx[ids[k]][dim];
      }
      groups.back().members.push_back(ids[k]);
      groups.back().last = std::max(groups.back().last, ids[k]);
    }
  }
  return groups;
}

struct GroupTileWrites : mlc::impl::GroupTileWritesBase<GroupTileWrites> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SmallVector<vector::TransferWriteOp>> chains;
    getOperation().walk([&](vector::TransferWriteOp w) {
      if (!isTileWrite(w))
        return;
      // Only from a chain's first write.
      if (auto prev = w.getBase().getDefiningOp<vector::TransferWriteOp>())
        if (isTileWrite(prev) && prev->hasOneUse() &&
            prev->getBlock() == w->getBlock() &&
            prev.getVectorType() == w.getVectorType())
          return;
      SmallVector<vector::TransferWriteOp> chain = chainFrom(w);
      if (int64_t(chain.size()) >= minChain)
        chains.push_back(std::move(chain));
    });
    for (auto &chain : chains)
      rewrite(chain);
  }

  void rewrite(MutableArrayRef<vector::TransferWriteOp> chain) {
    SmallVector<SmallVector<int64_t>> idx;
    SmallVector<bool> isConstant;
    if (failed(constantIndices(chain, idx, isConstant)))
      return;
    unsigned rank = isConstant.size();
    // The dim that leaves the fewest writes.
    std::optional<unsigned> best;
    SmallVector<Group> groups;
    for (unsigned d = 0; d + 1 < rank; ++d) {
      if (!isConstant[d])
        continue;
      SmallVector<Group> g = groupAlong(d, idx, maxGroup);
      if (!best || g.size() < groups.size()) {
        best = d;
        groups = std::move(g);
      }
    }
    if (!best || groups.size() >= chain.size())
      return;
    unsigned dim = *best;
    llvm::sort(groups,
               [](const Group &a, const Group &b) { return a.last < b.last; });

    VectorType vecType = chain.front().getVectorType();
    MLIRContext *ctx = vecType.getContext();
    AffineMap map2d = AffineMap::get(
        rank, 0, {getAffineDimExpr(dim, ctx), getAffineDimExpr(rank - 1, ctx)},
        ctx);
    Value current = chain.front().getBase();
    for (Group &g : groups) {
      vector::TransferWriteOp at = chain[g.last];
      OpBuilder b(at);
      Location loc = at.getLoc();
      vector::TransferWriteOp first = chain[g.members.front()];
      SmallVector<Value> indices(first.getIndices());
      if (g.members.size() == 1) {
        current = vector::TransferWriteOp::create(
                      b, loc, first.getVector(), current, indices,
                      first.getPermutationMapAttr(), first.getInBoundsAttr())
                      .getResult();
        continue;
      }
      auto groupType =
          VectorType::get({int64_t(g.members.size()), vecType.getNumElements()},
                          vecType.getElementType());
      Value tile = arith::ConstantOp::create(b, loc, groupType,
                                             b.getZeroAttr(groupType));
      for (size_t m : g.members)
        tile =
            vector::InsertOp::create(b, loc, chain[m].getVector(), tile,
                                     ArrayRef<int64_t>{idx[m][dim] - g.base});
      indices[dim] = arith::ConstantIndexOp::create(b, loc, g.base);
      current = vector::TransferWriteOp::create(
                    b, loc, tile, current, indices, AffineMapAttr::get(map2d),
                    b.getBoolArrayAttr({true, true}))
                    .getResult();
    }
    chain.back().getResult().replaceAllUsesWith(current);
    for (vector::TransferWriteOp w : llvm::reverse(chain))
      w.erase();
  }
};

} // namespace
