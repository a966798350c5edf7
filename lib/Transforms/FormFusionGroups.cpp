//===- FormFusionGroups.cpp - kernel boundaries as graph.fusion_group -----===//
//
// Decides which graph ops one kernel computes and makes that decision
// visible: each group becomes a graph.fusion_group region that lit tests can
// check and that codegen turns into one loop nest. The rules are in the
// pass description (include/mlc/Transforms/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHFORMFUSIONGROUPS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

enum class Role {
  Contraction,
  Reduction,
  Pool,
  Resize,
  Winograd,
  Elementwise,
  Data,
  None
};

Role roleOf(Operation *op) {
  if (isa<MatMulOp, Conv2DOp, Conv2DNchwcOp, ConvTranspose2DOp, MatMulIntegerOp,
          Conv2DIntegerOp, Conv2DIntegerNchwcOp>(op))
    return Role::Contraction;
  if (isa<ResizeOp>(op))
    return Role::Resize;
  if (isa<WinogradInputOp, WinogradOutputOp>(op))
    return Role::Winograd;
  if (isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp,
          SoftmaxOp, LogSoftmaxOp, LayerNormOp>(op))
    return Role::Reduction;
  if (isa<MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp>(op))
    return Role::Pool;
  // batch_norm is elementwise too: per-channel parameters along axis 1;
  // so is broadcast_to, whose result grows beyond its operand's shape.
  if (isBroadcastingElementwise(op) || isa<BatchNormOp, BroadcastToOp>(op))
    return Role::Elementwise;
  // argmax/argmin carry two accumulators (value, index): a kernel of their
  // own rather than a tiled reduction root.
  if (isa<TransposeOp, ConcatOp, GatherOp, PadOp, ArgMaxOp, ArgMinOp,
          GatherElementsOp, CumSumOp>(op))
    return Role::Data;
  // Constants are inputs; reshapes and slices are views: no kernel.
  return Role::None;
}

StringRef kindName(Role role) {
  switch (role) {
  case Role::Contraction:
    return "contraction";
  case Role::Reduction:
    return "reduction";
  case Role::Pool:
    return "pool";
  case Role::Resize:
    return "resize";
  case Role::Winograd:
    return "winograd";
  case Role::Elementwise:
    return "elementwise";
  case Role::Data:
    return "data";
  case Role::None:
    break;
  }
  return "none";
}

struct Group {
  Role role;
  llvm::SetVector<Operation *> ops;
};

class GroupBuilder {
public:
  GroupBuilder(Block &block, unsigned maxInputs)
      : block(block), maxInputs(maxInputs) {}

  void run() {
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    // Roots first, so elementwise ops join a root before forming chains.
    for (Operation *op : ops) {
      Role r = roleOf(op);
      if (r == Role::Contraction || r == Role::Reduction || r == Role::Pool ||
          r == Role::Resize || r == Role::Winograd) {
        unsigned g = newGroup(op, r);
        grow(g);
        // After grow, which reads the group's last op as its result.
        if (r == Role::Contraction)
          takeTransposedWeight(g);
      }
    }
    for (Operation *op : ops)
      if (roleOf(op) == Role::Elementwise && !groupOf.count(op))
        grow(newGroup(op, Role::Elementwise));
    for (Operation *op : ops)
      if (roleOf(op) == Role::Data && !groupOf.count(op))
        newGroup(op, Role::Data);
    for (Group &g : groups)
      materialize(g);
  }

private:
  unsigned newGroup(Operation *op, Role role) {
    groups.push_back({role, {}});
    add(groups.size() - 1, op);
    return groups.size() - 1;
  }
  void add(unsigned g, Operation *op) {
    groups[g].ops.insert(op);
    groupOf[op] = g;
  }

  /// Distinct values the group would read from outside if `extra` joined.
  unsigned countInputs(const Group &g, Operation *extra) {
    llvm::SmallPtrSet<Value, 16> inputs;
    auto visit = [&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && (g.ops.contains(def) || def == extra))
          continue;
        inputs.insert(v);
      }
    };
    for (Operation *op : g.ops)
      visit(op);
    visit(extra);
    return inputs.size();
  }

  /// The value a group hands to the rest of the graph: its last op's result.
  Operation *tail(const Group &g) { return g.ops.back(); }

  bool canJoin(unsigned g, Operation *op) {
    return roleOf(op) == Role::Elementwise && !groupOf.count(op) &&
           countInputs(groups[g], op) <= maxInputs;
  }

  /// Whether a consumer's result `v` keeps the group's `last` result shape:
  /// its type too, except after an integer contraction, whose int32 sums
  /// the epilogue dequantizes (and may quantize again), and for a quantize
  /// (a float kernel's result stored as the 8-bit input of the next
  /// integer one).
  static bool sameShape(const Group &g, Value v, Value last) {
    if (v.getType() == last.getType())
      return true;
    return (isa<MatMulIntegerOp, Conv2DIntegerOp, Conv2DIntegerNchwcOp>(
                g.ops.front()) ||
            (isa<QuantizeOp>(v.getDefiningOp()) &&
             !isGroupedFloatConv(g.ops.front()))) &&
           cast<ShapedType>(v.getType()).getShape() ==
               cast<ShapedType>(last.getType()).getShape();
  }

  /// A float convolution with groups (not depthwise): its contraction is a
  /// view of a [.., G, O/G, ..] one, and the contraction kernel takes no
  /// epilogue that changes the element type through that view (it would be
  /// generic loops, 25x slower on ResNeXt-50's grouped convolutions).
  static bool isGroupedFloatConv(Operation *op) {
    if (auto conv = dyn_cast<Conv2DNchwcOp>(op))
      return conv.getGroups() != 1;
    auto conv = dyn_cast<Conv2DOp>(op);
    if (!conv || conv.getGroups() == 1)
      return false;
    int64_t g = conv.getGroups();
    return !(g == conv.getInput().getType().getDimSize(1) &&
             g == conv.getType().getDimSize(1));
  }

  /// A matmul's right-hand side that is the transpose of a constant (a
  /// Gemm's transB): the transpose joins the matmul's group, whose kernel
  /// packs the weight from its stored layout. Folded instead, the transpose
  /// made a second copy of the weight at compile time (411 MB and 2 s for
  /// VGG-11-BN's first classifier layer, which the packer then transposed
  /// back in place).
  void takeTransposedWeight(unsigned g) {
    auto matmul = dyn_cast<MatMulOp>(groups[g].ops.front());
    if (!matmul)
      return;
    auto transpose = matmul.getRhs().getDefiningOp<TransposeOp>();
    if (!transpose || transpose->getBlock() != &block ||
        !transpose->hasOneUse() || groupOf.count(transpose) ||
        !matchPattern(transpose.getInput(), m_Constant()))
      return;
    add(g, transpose);
  }

  void grow(unsigned g) {
    // A transposed convolution's result is a view of its contraction's
    // (collapse_shape): the contraction kernel takes no epilogue through it.
    if (isa<ConvTranspose2DOp>(groups[g].ops.front()))
      return;
    // Consumers: the sole user of the group's result, elementwise, and not
    // broadcasting that result to a bigger shape.
    while (true) {
      Operation *last = tail(groups[g]);
      if (last->getNumResults() != 1 || !last->getResult(0).hasOneUse())
        break;
      Operation *user = *last->getResult(0).getUsers().begin();
      if (user->getBlock() != &block || !canJoin(g, user) ||
          !sameShape(groups[g], user->getResult(0), last->getResult(0)))
        break;
      add(g, user);
    }
    // Producers: single-use elementwise values feeding the group. Contraction
    // operands are excluded: a tiled contraction would recompute them; so
    // is a resize's input, read once per tap, and a Winograd transform's
    // (36 reads per element).
    if (groups[g].role == Role::Contraction || groups[g].role == Role::Resize ||
        groups[g].role == Role::Winograd)
      return;
    SmallVector<Operation *> worklist(groups[g].ops.begin(),
                                      groups[g].ops.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || def->getBlock() != &block || !v.hasOneUse() ||
            !canJoin(g, def))
          continue;
        add(g, def);
        worklist.push_back(def);
      }
    }
  }

  /// Replaces the group's ops by a graph.fusion_group placed where its last
  /// op was: every input is defined before that point and every outside user
  /// comes after it.
  void materialize(Group &g) {
    SmallVector<Operation *> ops(g.ops.begin(), g.ops.end());
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    llvm::SetVector<Value> inputs;
    SmallVector<Value> results;
    llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
    for (Operation *op : ops) {
      for (Value v : op->getOperands())
        if (!members.contains(v.getDefiningOp()))
          inputs.insert(v);
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(),
                         [&](Operation *u) { return !members.contains(u); }))
          results.push_back(r);
    }
    Operation *last = ops.back();
    OpBuilder b(last);
    auto group = FusionGroupOp::create(
        b,
        FusedLoc::get(b.getContext(),
                      llvm::map_to_vector(
                          ops, [](Operation *op) { return op->getLoc(); })),
        ValueRange(results).getTypes(), inputs.getArrayRef(), kindName(g.role));
    Block &body = group.getBody().front();
    IRMapping map;
    for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
      map.map(in, arg);
    b.setInsertionPointToStart(&body);
    for (Operation *op : ops)
      b.clone(*op, map);
    SmallVector<Value> yielded =
        llvm::map_to_vector(results, [&](Value r) { return map.lookup(r); });
    YieldOp::create(b, group.getLoc(), yielded);
    for (auto [r, gr] : llvm::zip(results, group.getResults()))
      r.replaceAllUsesWith(gr);
    for (Operation *op : llvm::reverse(ops))
      op->erase();
  }

  Block &block;
  unsigned maxInputs;
  std::vector<Group> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
};

struct GraphFormFusionGroups
    : mlc::graph::impl::GraphFormFusionGroupsBase<GraphFormFusionGroups> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Already grouped (e.g. the pipeline ran twice): leave it alone.
    if (!func.getOps<FusionGroupOp>().empty())
      return;
    for (Block &block : func.getBody())
      GroupBuilder(block, maxInputs).run();
  }
};

} // namespace
