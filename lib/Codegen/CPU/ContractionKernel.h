//===- ContractionKernel.h - contraction kernel internals ----*- C++ -*-===//
//
// Shared by the files of the contraction kernel (ContractionPlan.cpp: which
// dims are rows and vectors and how each operand is read; ContractionPack.cpp:
// operand layouts made before the loops; ContractionBlocking.cpp: reduction
// blocks, panel groups and the threaded loop; ContractionPrefetch.cpp: the
// epilogue's operands fetched ahead; ContractionKernel.cpp: the loops).
// See ContractionKernel.cpp for the kernel's shape.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_CONTRACTIONKERNEL_H
#define MLC_LIB_CODEGEN_CPU_CONTRACTIONKERNEL_H

#include "KernelSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <optional>
#include <vector>

namespace mlc::codegen::contraction {

using namespace mlir;

/// How a multiplicand, an epilogue operand or the initial value is read.
struct Access {
  Value tensor;
  AffineMap map; // over the contraction's loops
  // Every index a loop dim in the op itself, before dims of extent 1 were
  // dropped (matmul operands; not a 1x1 convolution's x[c, oh + kh, ...]).
  bool plainIndices = false;
  bool dependsM = false;
  bool dependsN = false;
  int64_t nStride = 0;  // coefficient of n in the index that has it
  unsigned nResult = 0; // which index has n
  bool gather = false;  // n is not in the last index: lane by lane
  // Packed: tensor is [outer..., N/nr, reduction..., nr].
  bool packed = false;
  SmallVector<unsigned> packOuter, packReduction;
  // Deinterleaved: index nResult (s * n + r) split into the phase r mod s
  // and the column n + r floordiv s of a tensor [..., s, W'] (s = nStride),
  // so that a strided read is a contiguous one.
  bool deinterleaved = false;
  // The destination (or this thread's slice of it): indices relative to
  // the slice's base.
  bool destRelative = false;
};

struct Plan {
  linalg::GenericOp contraction;
  linalg::GenericOp epilogue; // may be null
  unsigned numLoops = 0, numParallel = 0;
  SmallVector<int64_t> bounds;
  unsigned nDim = 0;
  std::optional<unsigned> mDim;
  Access lhs, rhs;
  // Initial accumulator: a splat, or read through `init`.
  std::optional<Attribute> initSplat;
  Access init;
  SmallVector<Access> epilogueInputs; // null tensor: the contraction result
  int64_t vw = 8, nv = 1, mr = 1;
  // Rows of a tile of `vecs` vectors (mr = rowsFor(nv)): an n tail of fewer
  // vectors takes more rows, up to the same accumulator budget and cap.
  // Given the extent the row tiles cover, one more row may fit and tile
  // it better (see the definition).
  int64_t accBudget = 4, rowCap = 4, registers = 16;
  int64_t innerReduction = 1; // extent of the innermost reduction loop
  int64_t rowsFor(int64_t vecs, int64_t extent = 0) const;
};

bool dependsOn(AffineMap map, unsigned dim);

/// A loop dim, or the 0 that stands for a dim of extent 1.
bool isPlainResult(AffineExpr e);

bool isConstantInput(graph::FusionGroupOp group, Value v);

/// The float values of a constant operand, dense or resource-backed: read in
/// place where the attribute holds them as row-major floats, else decoded
/// into `storage`.
std::optional<ArrayRef<float>> constantData(graph::FusionGroupOp group, Value v,
                                            std::vector<float> &storage);

/// Chooses rows, tile sizes and operand accesses; nullopt: not our shape.
std::optional<Plan> makePlan(graph::FusionGroupOp group,
                             const KernelOptions &opts);

/// Emits the loops of one plan.
class Emitter {
public:
  Emitter(RewriterBase &rewriter, graph::FusionGroupOp group, Plan &plan,
          const KernelOptions &opts)
      : b(rewriter), group(group), p(plan), opts(opts),
        loc(plan.contraction.getLoc()),
        vecType(VectorType::get({plan.vw}, rewriter.getF32Type())) {}

  Value run();

private:
  RewriterBase &b;
  graph::FusionGroupOp group;
  Plan &p;
  const KernelOptions &opts;
  Location loc;
  VectorType vecType;
  int64_t nr() const { return p.nv * p.vw; }
  unsigned innermostReduction = 0;
  /// #llvm.loop_annotation that disables LLVM's unrolling.
  Attribute noUnrollHint();

  /// Where the current tile is.
  struct Point {
    SmallVector<Value> dims;     // value of each loop dim (tile bases)
    SmallVector<Value> destBase; // offset of the current dest per out dim
    Value nTile;                 // n0 / nr
    int64_t rows = 1, vecs = 1, lastLanes = 0;
    // Which block of the reduction's first dim (see kBlock) this tile sums:
    // all of it (Whole), or the First, a Middle or the Last block, whose
    // base is dims[kDim] and extent kExtent. Partial sums are kept in the
    // destination between blocks; only the last applies the epilogue.
    enum Phase { Whole, First, Middle, Last } phase = Whole;
    int64_t kExtent = 0;
    // Inside a Groups level: the first index and the extent of the
    // current group of its dim.
    Value groupBase;
    int64_t groupExtent = 0;
  };

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  SmallVector<Value> indices(const Access &a, const Point &pt, int64_t i,
                             int64_t j);
  Value read(const Access &a, const Point &pt, int64_t i, int64_t j);
  /// The largest value index `result` of `a` takes over the loop bounds.
  int64_t maxIndex(const Access &a, unsigned result) const;
  Value tile(Value dest, Point pt);
  Value loops(Value dest, Point pt, unsigned level);
  /// Whether `a` is indexed by plain dims (or s * n + c along n when not
  /// a constant) and by a reduction dim: packable.
  bool canPack(const Access &a, bool isConstant) const;
  void pack(Access &a);
  /// pack() of a [K, N] weight that the kernel alone reads, in its own
  /// blob: false where that does not apply.
  bool packInPlace(Access &a, ArrayRef<unsigned> order,
                   RankedTensorType packedType);
  /// pack() of any other weight the kernel alone reads whose packed layout
  /// has its size, in its own blob from a scratch copy: false where that
  /// does not apply.
  bool packThroughCopy(Access &a, ArrayRef<unsigned> order,
                       RankedTensorType packedType);
  mlir::DialectResourceBlobManager::BlobEntry *
  ownedWeight(const Access &a) const;
  void adoptPacked(Access &a,
                   mlir::DialectResourceBlobManager::BlobEntry *entry,
                   RankedTensorType packedType);
  void packConstant(ArrayRef<float> src, ArrayRef<int64_t> srcShape,
                    ArrayRef<unsigned> order, const Access &a,
                    ArrayRef<int64_t> shape,
                    MutableArrayRef<float> packed) const;
  /// Whether `a`'s strided index is s * n + r with r >= 0 over the loops
  /// and its element type f32.
  bool canDeinterleave(const Access &a) const;
  void deinterleave(Access &a);

  /// Loop levels, outermost first.
  /// Groups: groups of `panelGroup` indices of a dim whose Outer level
  /// comes further in, after the rows (see choosePanelGroups).
  enum Kind { KBlocks, Groups, Outer, NTiles, MTiles };
  struct Level {
    Kind kind;
    unsigned dim;
  };
  SmallVector<Level> levels;
  std::optional<unsigned> parallelLevel;
  /// Set when the rows run over the flattened (this dim, m) space: row
  /// p0 + i is (p0 + i) floordiv W, (p0 + i) mod W with W m's extent.
  std::optional<unsigned> flatOuter;
  /// Block size of the reduction's first dim (0: not blocked): a long
  /// reduction is split so that the vector operand's panel of one block
  /// stays in L1 while every row tile reads it.
  int64_t kBlock = 0;
  unsigned kDim = 0;
  /// The block size chooseReductionBlock would take with rows flattened
  /// over `flat` and the map (0: the reduction stays whole).
  int64_t reductionBlock(std::optional<unsigned> flat) const;
  void chooseReductionBlock() {
    kDim = p.numParallel;
    kBlock = reductionBlock(flatOuter);
  }
  /// Buffers of the epilogue operands whose rows are prefetched one row
  /// tile ahead (null: not prefetched); see choosePrefetches.
  SmallVector<Value> prefetchBuffers;
  void choosePrefetches();
  /// Prefetches the next row tile's lines of each prefetched operand.
  void prefetchNextRows(const Point &pt);
  /// The partial sums of row i, vector j, read back from `dest`.
  Value readPartial(Value dest, const Point &pt, int64_t i, int64_t j);
  /// Index `e` (over the loop dims) of output dim `d`, relative to the
  /// base of this thread's slice of the destination.
  OpFoldResult destIndex(AffineExpr e, const Point &pt, unsigned d);
  /// `e` at row i of the tile: m + i, or through the flattened rows.
  AffineExpr atRow(AffineExpr e, int64_t i) const;
  void chooseParallelLevel();
  /// The multiplicand read by rows and broadcast along n (a convolution's
  /// input), if one is.
  const Access *rowOperand() const;
  /// Moves the outer loops over rows outside those over the vector
  /// operand's panels, whole or in groups (see the definition).
  void choosePanelGroups();
  int64_t panelGroup = 0;
  bool rowsOutside = false;
};

} // namespace mlc::codegen::contraction

#endif
