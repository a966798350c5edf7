//===- ContractionBlocking.cpp - which loops go where ---------------------===//
//
// The contraction kernel's loop-order choices for the caches and threads:
// reduction blocks (the input's slice in L2, the panel's in L1), panel
// groups (rows outside groups of output channel blocks) and the loop that
// becomes an scf.forall. See ContractionKernel.cpp for the loops themselves
// and run() for the order in which these are decided.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernel.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::contraction;

int64_t Emitter::reductionBlock(std::optional<unsigned> flat) const {
  // The multiplicand read by rows (broadcast along n) is streamed again for
  // every n tile and outer index it does not depend on. Once that is many
  // MB of a tensor larger than L2 (a 1x1 convolution with 2048 input
  // channels on a 7x7 map re-read its 400 KB input for each of 32 panels
  // of output channels, at 40% of the FMA peak), the reduction's first dim
  // (input channels) is split into blocks whose slice of it stays in L2
  // and whose panel of the vector operand stays in L1; partial sums go
  // through the destination. Below that, storing and reloading the partial
  // sums costs more than it saves (3x3 convolutions on 7-28 wide maps lost
  // 6-11%).
  unsigned first = p.numParallel; // the reduction's first dim
  const Access *rows = rowOperand();
  auto destType =
      cast<RankedTensorType>((p.epilogue ? p.epilogue.getDpsInits()[0]
                                         : p.contraction.getDpsInits()[0])
                                 .getType());
  // Only with vectors along output channels: otherwise the partial sums of
  // a narrow map are masked loads and stores (a 1x1 convolution on a 7x7
  // map with vectors along its rows ran 2.5x slower blocked). The blocked
  // layout [N, C / B, H, W, B] has them too, in whole vectors, when its
  // rows run over the whole map (flatOuter, checked below).
  bool panelOutermost = p.nDim + 1 != p.numParallel;
  bool blockedLayout = !panelOutermost && p.bounds[p.nDim] % nr() == 0;
  if (!rows || !(panelOutermost || blockedLayout) ||
      !destType.getElementType().isF32() || !dependsOn(rows->map, first))
    return 0;
  int64_t rowBytes =
      cast<RankedTensorType>(rows->tensor.getType()).getNumElements() * 4;
  int64_t passes = llvm::divideCeil(p.bounds[p.nDim], nr());
  for (unsigned d = 0; d < p.numParallel; ++d)
    if (d != p.nDim && d != p.mDim && d != flat && !dependsOn(rows->map, d))
      passes *= p.bounds[d];
  if (rowBytes < (256 << 10) || rowBytes * passes < (8 << 20))
    return 0;
  int64_t reduction = 1;
  for (unsigned d = p.numParallel; d < p.numLoops; ++d)
    reduction *= p.bounds[d];
  int64_t channels = p.bounds[first], inner = reduction / channels;
  // Measured: 1x1 convolutions (14x14 and 7x7 maps, 1.1-1.2x) and 3x3
  // ones with rows over a whole narrow map (a stride-2 one on 14x14,
  // 1.35x) gain; a 3x3 stride-2 one with 14-wide rows lost 20% to the
  // partial sums' transposed stores and gathered reloads.
  if (inner != 1 && !flat)
    return 0;
  // Blocked: 1x1 convolutions only (inner is the channels of one input
  // block); a 3x3 one's slices would be a block or two of channels.
  if (blockedLayout && inner != p.bounds[p.nDim])
    return 0;
  // In the blocked layout the panel's slice takes half of L1 and a block
  // may be as small as 128 channels, as in MLAS's pointwise kernel: ResNeXt-
  // 50's last 1x1 convolutions (2048 -> 1024 on 7x7, and the stride-2 1024
  // -> 2048 one from 14x14) gained 7% and 18%; 32 KB slices of at least
  // 512 channels left the stride-2 one unblocked.
  int64_t l1Bytes = blockedLayout ? (16 << 10) : (32 << 10);
  int64_t minBlock = blockedLayout ? llvm::divideCeil(128, inner) : 32;
  int64_t block =
      std::min(channels * (256 << 10) / rowBytes, l1Bytes / (inner * nr() * 4));
  // Small blocks cost more in partial sums than they save; equal blocks.
  if (block < minBlock || 2 * block > channels)
    return 0;
  return llvm::divideCeil(channels, llvm::divideCeil(channels, block));
}

const Access *Emitter::rowOperand() const {
  for (const Access *a : {&p.lhs, &p.rhs})
    if (a->dependsM && !a->dependsN)
      return a;
  return nullptr;
}

void Emitter::choosePanelGroups() {
  // The blocked layout [N, C / B, H, W, B] visits every output channel
  // block for all pixels in turn, so an input larger than half of L2 is
  // streamed again for each block (ResNet-50's 1x1 convolutions on 56x56
  // maps, its stride-2 downsample ones). The output rows go outside the
  // channel blocks instead, for groups of blocks whose weight panels fit
  // in half of L2 together: each input row is then read once per group,
  // from L1, by all of its panels.
  const Access *rows = rowOperand();
  // Rows along W with H before them (a 2-D matmul's rows have no H).
  if (p.nDim + 1 != p.numParallel || !p.mDim || *p.mDim + 2 != p.numParallel ||
      *p.mDim < 1 || !rows)
    return;
  const Access &vec = rows == &p.lhs ? p.rhs : p.lhs;
  auto bytes = [](const Access &a) {
    return cast<RankedTensorType>(a.tensor.getType()).getNumElements() * 4;
  };
  constexpr int64_t kHalfL2 = 256 << 10;
  if (bytes(*rows) <= kHalfL2 && bytes(*rows) <= bytes(vec))
    return;
  // A narrow map keeps its rows over the whole map instead (flatOuter):
  // 7-wide rows of 5 + 2 pixels cost ResNet-50's last downsample 10%. So
  // does a map whose rows fill the tiles clearly worse than the whole map
  // does, when the input is at most twice half of L2 (SqueezeNet's
  // 512 -> 1000 classifier on a 13x13 map: rows of 5 + 5 + 3).
  int64_t w = p.bounds[*p.mDim], hw = w * p.bounds[*p.mDim - 1];
  auto use = [&](int64_t extent) {
    return double(extent) / double(llvm::alignTo(extent, p.mr));
  };
  if (w < 2 * p.mr || (bytes(*rows) <= 2 * kHalfL2 && use(hw) > use(w) + 0.1))
    return;
  // The one outer dim only the panels depend on (output channel blocks).
  auto panelDim = llvm::find_if(levels, [&](const Level &l) {
    return l.kind == Outer && !dependsOn(rows->map, l.dim) &&
           dependsOn(vec.map, l.dim);
  });
  if (panelDim == levels.end())
    return;
  unsigned dim = panelDim->dim;
  int64_t panelBytes = bytes(vec) / p.bounds[dim];
  int64_t group = std::max<int64_t>(1, kHalfL2 / panelBytes);
  if (group == 1)
    return;
  std::stable_partition(levels.begin(), levels.end(), [&](const Level &l) {
    return l.kind != Outer || dependsOn(rows->map, l.dim);
  });
  rowsOutside = true;
  if (group < p.bounds[dim]) {
    panelGroup = group;
    levels.insert(levels.begin(), {Groups, dim});
  }
}

void Emitter::chooseParallelLevel() {
  if (!worthThreads(p.bounds, opts.parallelMinWork))
    return;
  for (unsigned level = 0; level < levels.size() && !parallelLevel; ++level) {
    int64_t extent = p.bounds[levels[level].dim];
    if (levels[level].kind == KBlocks || levels[level].kind == Groups ||
        (levels[level].kind == MTiles && flatOuter))
      continue; // rows are stored column by column, not as one slice
    int64_t trips = levels[level].kind == Outer    ? extent
                    : levels[level].kind == NTiles ? extent / nr()
                                                   : extent / p.mr;
    if (trips >= 2)
      parallelLevel = level;
  }
}
