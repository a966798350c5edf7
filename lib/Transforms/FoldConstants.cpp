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
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFOLDCONSTANTS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// Bytes of a tensor's elements; 0 for element types graph ops do not use.
int64_t sizeInBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<ElementKind> kind =
      tensor ? getElementKind(tensor.getElementType()) : std::nullopt;
  if (!kind || !tensor.hasStaticShape())
    return 0;
  return tensor.getNumElements() * getElementSize(*kind);
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
    int64_t freed = 0;
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value v : op->getOperands()) {
      if (!seen.insert(v).second)
        continue;
      if (llvm::all_of(v.getUsers(), [&](Operation *u) { return u == op; }))
        freed += sizeInBytes(v.getType());
    }
    return sizeInBytes(type) <= freed;
  }

  bool tryFold(Operation *op) {
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

    // Constants the evaluator cannot read (e.g. elided blobs) stay unfolded.
    SmallVector<HostTensor> operands;
    for (ElementsAttr attr : values) {
      FailureOr<HostTensor> t = fromElementsAttr(attr);
      if (failed(t))
        return false;
      operands.push_back(std::move(*t));
    }
    FailureOr<HostTensor> result = evaluateOp(op, operands);
    if (failed(result))
      return false;
    ElementsAttr attr = toElementsAttr(&getContext(), *result);
    if (attr.getType() != type)
      return false;

    OpBuilder builder(op);
    auto constant = ConstantOp::create(builder, op->getLoc(), attr);
    llvm::SetVector<Operation *> defs;
    for (Value v : op->getOperands())
      defs.insert(v.getDefiningOp());
    op->getResult(0).replaceAllUsesWith(constant.getResult());
    op->erase();
    for (Operation *def : defs)
      if (def->use_empty())
        def->erase();
    return true;
  }
};

} // namespace
