//===- FoldConstants.cpp - evaluate graph ops on constants ----------------===//
//
// Replaces graph ops whose operands are all constants by the constant they
// compute. Values come from the reference evaluator, which matches the
// compiled kernels bit for bit, so a model gives the same outputs whether a
// subgraph was folded or not. A size rule (see the pass description) keeps
// folding from inflating the binary.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/WeightBlobs.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// Blobs at least this large are freed as soon as folding leaves them
/// unreferenced (a look over the whole module each).
constexpr size_t kReleaseBytes = 1 << 20;

/// Bytes of a tensor's elements; 0 for element types graph ops do not use.
int64_t sizeInBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<ElementKind> kind =
      tensor ? getElementKind(tensor.getElementType()) : std::nullopt;
  if (!kind || !tensor.hasStaticShape())
    return 0;
  return tensor.getNumElements() * getElementSize(*kind);
}

/// A large weight's transpose (a Gemm's transB) read in place and written
/// straight into its blob; the evaluator would copy the weight twice on the
/// way. Null where the evaluator decides (small, splat or bool tensors).
ElementsAttr foldTranspose(TransposeOp op, ElementsAttr input) {
  auto type = cast<RankedTensorType>(op.getType());
  std::optional<ElementKind> kind = getElementKind(type.getElementType());
  if (!kind || *kind == ElementKind::I1 ||
      type.getNumElements() <= kMaxDenseAttrElements)
    return {};
  int64_t size = getElementSize(*kind);
  std::optional<ArrayRef<char>> raw = storedElements(input, size);
  if (!raw)
    return {};
  // All elements equal: the evaluator's path makes a splat.
  bool splat = true;
  for (size_t i = size; i < raw->size() && splat; i += size)
    splat = std::memcmp(raw->data(), raw->data() + i, size) == 0;
  if (splat)
    return {};
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(raw->size(), size, /*dataIsMutable=*/true);
  transposeBytes(*raw, cast<ShapedType>(input.getType()).getShape(),
                 op.getPerm(), size, blob.getMutableData());
  return DenseResourceElementsAttr::get(type, "folded", std::move(blob));
}

struct GraphFoldConstants
    : mlc::graph::impl::GraphFoldConstantsBase<GraphFoldConstants> {
  using Base::Base;

  void runOnOperation() override {
    // Operands are defined before their users, so one sweep in program order
    // folds whole chains; sweep again until nothing changes in case some
    // region's block order is not dominance order.
    bool changed;
    do {
      SmallVector<Operation *> candidates;
      getOperation().walk([&](Operation *op) {
        if (isa<GraphDialect>(op->getDialect()) &&
            !op->hasTrait<OpTrait::ConstantLike>() &&
            op->getNumResults() == 1 && op->getNumOperands() > 0)
          candidates.push_back(op);
      });
      changed = false;
      for (Operation *op : candidates)
        changed |= tryFold(op);
    } while (changed);
  }

  /// Whether folding `op` respects the size rule: a small result, or one no
  /// larger than the constants that die with the op.
  bool withinSizeLimit(Operation *op, RankedTensorType type) {
    if (type.getNumElements() <= maxResultElements)
      return true;
    int64_t freed = 0, largest = 0;
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value v : op->getOperands()) {
      largest = std::max(largest, sizeInBytes(v.getType()));
      if (!seen.insert(v).second)
        continue;
      if (llvm::all_of(v.getUsers(), [&](Operation *u) { return u == op; }))
        freed += sizeInBytes(v.getType());
    }
    // A result at most half its largest operand (8-bit weights quantized
    // from a float one that stays for other users) grows the weights by
    // less than that operand: worth it, the op would run on every call.
    return sizeInBytes(type) <= freed || 2 * sizeInBytes(type) <= largest;
  }

  /// A transpose whose only user reads it as the right-hand side of a
  /// matmul that stays (its left-hand side is not a constant: otherwise the
  /// whole product folds).
  static bool isMatmulWeightTranspose(Operation *op) {
    if (!isa<TransposeOp>(op) || !op->hasOneUse())
      return false;
    auto matmul = dyn_cast<MatMulOp>(*op->getUsers().begin());
    return matmul && matmul.getRhs() == op->getResult(0) &&
           !matchPattern(matmul.getLhs(), m_Constant());
  }

  bool tryFold(Operation *op) {
    if (keepMatmulTransposes && isMatmulWeightTranspose(op))
      return false;
    SmallVector<ElementsAttr> values;
    for (Value v : op->getOperands()) {
      ElementsAttr attr;
      if (!matchPattern(v, m_Constant(&attr)))
        return false;
      values.push_back(attr);
    }
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape() ||
        !getElementKind(type.getElementType()) || !withinSizeLimit(op, type))
      return false;

    ElementsAttr attr;
    if (auto transpose = dyn_cast<TransposeOp>(op))
      attr = foldTranspose(transpose, values[0]);
    if (!attr) {
      FailureOr<ElementsAttr> evaluated = evaluate(op, values);
      if (failed(evaluated))
        return false;
      attr = *evaluated;
    }
    if (attr.getType() != type)
      return false;

    OpBuilder builder(op);
    auto constant = ConstantOp::create(builder, op->getLoc(), attr);
    llvm::SetVector<Operation *> defs;
    for (Value v : op->getOperands())
      defs.insert(v.getDefiningOp());
    op->getResult(0).replaceAllUsesWith(constant.getResult());
    op->erase();
    SmallVector<BlobEntry *> dropped;
    for (Operation *def : defs) {
      if (!def->use_empty())
        continue;
      if (BlobEntry *blob = releaseWeights ? largeBlob(def) : nullptr)
        dropped.push_back(blob);
      def->erase();
    }
    releaseUnused(dropped);
    return true;
  }

  /// The blob of a constant op's dense_resource value, if large enough to
  /// matter for the compiler's peak memory.
  static BlobEntry *largeBlob(Operation *constant) {
    ElementsAttr attr;
    if (!matchPattern(constant->getResult(0), m_Constant(&attr)))
      return nullptr;
    auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
    BlobEntry *entry =
        resource ? resource.getRawHandle().getResource() : nullptr;
    return entry && entry->getBlob() &&
                   entry->getBlob()->getData().size() >= kReleaseBytes
               ? entry
               : nullptr;
  }

  /// Frees the blobs of `dropped` that no op refers to any more (see the
  /// release-weights option).
  void releaseUnused(ArrayRef<BlobEntry *> dropped) {
    if (dropped.empty())
      return;
    llvm::DenseSet<BlobEntry *> used;
    forEachWeightBlob(getOperation(),
                      [&](BlobEntry *blob) { used.insert(blob); });
    for (BlobEntry *blob : dropped)
      if (!used.contains(blob))
        releaseBlob(blob);
  }

  /// The result of `op` on `values` through the reference evaluator.
  FailureOr<ElementsAttr> evaluate(Operation *op,
                                   ArrayRef<ElementsAttr> values) {
    // Constants the evaluator cannot read (e.g. elided blobs) stay unfolded.
    SmallVector<HostTensor> operands;
    for (ElementsAttr attr : values) {
      FailureOr<HostTensor> t = fromElementsAttr(attr);
      if (failed(t))
        return failure();
      operands.push_back(std::move(*t));
    }
    FailureOr<HostTensor> result = evaluateOp(op, operands);
    if (failed(result))
      return failure();
    operands.clear();
    // The blob takes the result's storage: no copy.
    return toElementsAttr(&getContext(), std::move(*result));
  }
};

} // namespace
