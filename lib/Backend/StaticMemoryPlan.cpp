//===- StaticMemoryPlan.cpp - intermediates at fixed workspace offsets ----===//
//
// After bufferization the entry function heap-allocates its intermediates.
// This pass gives every statically shaped one a fixed offset in a single
// workspace buffer that the caller (the runtime, once per run) passes in as
// the entry's last argument: a run does no allocation, buffers with disjoint
// lifetimes share memory, and concurrent runs share nothing.
//
// Lifetimes are intervals over the entry block's top-level ops, so a use
// anywhere inside a loop nest or a linalg body counts for the whole op.
// Placement is greedy by size with best fit (as in TFLite's arena planner),
// which is close to the lower bound on typical inference graphs.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlc {
#define GEN_PASS_DEF_STATICMEMORYPLAN
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Every offset is a multiple of this; the runtime aligns the workspace to
/// it too, so planned buffers are as aligned as the heap ones were.
constexpr int64_t kAlignment = 64;

struct Buffer {
  memref::AllocOp alloc;
  int64_t size = 0;
  // First and last top-level op using the buffer or an alias (inclusive).
  unsigned start = ~0u, end = 0;
  llvm::DenseSet<Value> aliases;
  SmallVector<Operation *> deallocs;
  // In-place group: buffers that share one offset.
  unsigned leader = 0;
  bool donated = false;
};

struct Group {
  int64_t size = 0, offset = 0;
  unsigned start = ~0u, end = 0, id = 0;
  bool overlaps(const Group &o) const {
    return start <= o.end && o.start <= end;
  }
};

/// Size in bytes of an alloc the plan can place, or nullopt: dynamic shapes,
/// layouts, memory spaces and alignments beyond the workspace's stay on the
/// heap.
std::optional<int64_t> plannableSize(memref::AllocOp alloc,
                                     const DataLayout &layout) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrIndexOrFloat())
    return std::nullopt;
  if (std::optional<uint64_t> align = alloc.getAlignment();
      align && *align > uint64_t(kAlignment))
    return std::nullopt;
  return type.getNumElements() *
         int64_t(layout.getTypeSize(type.getElementType()).getFixedValue());
}

/// Collects the aliases of `buf` and the span of top-level ops that use it.
/// Returns false when its address may be used beyond what the span covers.
bool analyzeUses(Buffer &buf, Block &body,
                 const DenseMap<Operation *, unsigned> &index) {
  SmallVector<Value> worklist{buf.alloc.getResult()};
  buf.aliases.insert(buf.alloc.getResult());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user)) {
        buf.deallocs.push_back(user);
        continue;
      }
      // Returned, stored, or turned into a plain pointer: it outlives the
      // span we can see.
      if (isa<func::ReturnOp, memref::ExtractAlignedPointerAsIndexOp,
              UnrealizedConversionCastOp>(user) ||
          (isa<memref::StoreOp>(user) && use.getOperandNumber() == 0))
        return false;
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return false;
      unsigned i = index.lookup(top);
      buf.start = std::min(buf.start, i);
      buf.end = std::max(buf.end, i);
      // Any memref an op (or an enclosing op up to the top level) produces
      // from the buffer may alias it: views, reshapes, casts, loop results.
      for (Operation *op = user;; op = op->getParentOp()) {
        for (Value result : op->getResults())
          if (isa<BaseMemRefType, TensorType>(result.getType()) &&
              buf.aliases.insert(result).second)
            worklist.push_back(result);
        if (op == top)
          break;
      }
    }
  }
  return true;
}

/// The value an identity-mapped read of `v` sees element for element: `v`
/// itself through contiguous reshapes and casts.
Value stripReshapes(Value v) {
  auto contiguous = [](Value x) {
    auto type = dyn_cast<MemRefType>(x.getType());
    return type && type.getLayout().isIdentity();
  };
  while (contiguous(v)) {
    Operation *def = v.getDefiningOp();
    Value source;
    if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(def))
      source = expand.getSrc();
    else if (auto collapse = dyn_cast_or_null<memref::CollapseShapeOp>(def))
      source = collapse.getSrc();
    else if (auto cast = dyn_cast_or_null<memref::CastOp>(def))
      source = cast.getSource();
    if (!source || !contiguous(source))
      break;
    v = source;
  }
  return v;
}

unsigned findLeader(SmallVectorImpl<Buffer> &buffers, unsigned i) {
  while (buffers[i].leader != i)
    i = buffers[i].leader = buffers[buffers[i].leader].leader;
  return i;
}

/// Lets `out`, born at `op`, take the place of an input that dies there when
/// `op` reads and writes the same element positions.
void tryInPlace(linalg::GenericOp op, unsigned out,
                SmallVectorImpl<Buffer> &buffers,
                const DenseMap<Value, unsigned> &bufferOf) {
  if (op.getNumLoops() != op.getNumParallelLoops())
    return;
  Buffer &b = buffers[out];
  OpOperand *init = nullptr;
  for (OpOperand &o : op.getDpsInitsMutable())
    if (o.get() == b.alloc.getResult())
      init = &o;
  if (!init || !op.getMatchingIndexingMap(init).isIdentity())
    return;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto inType = dyn_cast<MemRefType>(in->get().getType());
    if (!inType || !op.getMatchingIndexingMap(in).isIdentity() ||
        inType.getShape() != b.alloc.getType().getShape())
      continue;
    auto it = bufferOf.find(stripReshapes(in->get()));
    if (it == bufferOf.end() || it->second == out)
      continue;
    Buffer &a = buffers[it->second];
    if (a.donated || a.end != b.start || a.size != b.size)
      continue;
    // Any other access to a buffer of either group in this op could see
    // the other's elements.
    unsigned la = findLeader(buffers, it->second), lb = findLeader(buffers, out);
    SmallVector<Buffer *> members;
    for (unsigned i = 0; i < buffers.size(); ++i)
      if (unsigned l = findLeader(buffers, i); l == la || l == lb)
        members.push_back(&buffers[i]);
    auto touches = [&](Value v) {
      return llvm::any_of(members,
                          [&](Buffer *m) { return m->aliases.contains(v); });
    };
    bool clean = true;
    for (OpOperand &o : op->getOpOperands())
      if (&o != in && &o != init && touches(o.get()))
        clean = false;
    op.getRegion().walk([&](Operation *nested) {
      if (llvm::any_of(nested->getOperands(), touches))
        clean = false;
    });
    if (!clean)
      continue;
    a.donated = true;
    buffers[lb].leader = la;
    return;
  }
}

/// Greedy by size, best fit: each group goes into the smallest free gap
/// among the already placed groups it overlaps in time, or on top of them.
int64_t placeGroups(SmallVectorImpl<Group> &groups) {
  SmallVector<Group *> order;
  for (Group &g : groups)
    order.push_back(&g);
  llvm::stable_sort(order, [](const Group *x, const Group *y) {
    return std::make_tuple(-x->size, x->start, x->id) <
           std::make_tuple(-y->size, y->start, y->id);
  });
  SmallVector<Group *> placed;
  int64_t total = 0;
  for (Group *g : order) {
    if (g->size == 0)
      continue;
    SmallVector<Group *> live;
    for (Group *p : placed)
      if (p->overlaps(*g))
        live.push_back(p);
    llvm::sort(live, [](const Group *x, const Group *y) {
      return x->offset < y->offset;
    });
    int64_t cursor = 0, best = -1, bestGap = 0;
    for (Group *p : live) {
      int64_t gap = p->offset - cursor;
      if (gap >= g->size && (best < 0 || gap < bestGap)) {
        best = cursor;
        bestGap = gap;
      }
      cursor = std::max<int64_t>(
          cursor, llvm::alignTo(p->offset + p->size, kAlignment));
    }
    g->offset = best >= 0 ? best : cursor;
    total = std::max(total, g->offset + g->size);
    placed.push_back(g);
  }
  return total;
}

/// The largest total size of simultaneously live groups: no placement can
/// use less.
int64_t lowerBound(ArrayRef<Group> groups) {
  SmallVector<std::pair<int64_t, int64_t>> events; // (time, size delta)
  for (const Group &g : groups) {
    events.push_back({2 * int64_t(g.start) + 1, g.size});
    events.push_back({2 * int64_t(g.end) + 2, -g.size});
  }
  // Ends sort before starts at the same op (2 * end + 2 > 2 * start + 1
  // keeps a group live through its last op).
  llvm::sort(events);
  int64_t live = 0, peak = 0;
  for (auto [time, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
  }
  return peak;
}

struct StaticMemoryPlan : mlc::impl::StaticMemoryPlanBase<StaticMemoryPlan> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError("entry function '" + entry + "' not found");
      return signalPassFailure();
    }
    if (module->hasAttr("mlc.workspace_bytes")) {
      module.emitError("the module already has a memory plan");
      return signalPassFailure();
    }
    // Lifetimes are op intervals in one block; a called entry cannot grow
    // an argument.
    if (!func.getBody().hasOneBlock() ||
        !SymbolTable::symbolKnownUseEmpty(func, module))
      return;
    Block &body = func.getBody().front();

    DenseMap<Operation *, unsigned> index;
    SmallVector<Operation *> topOps;
    for (Operation &op : body) {
      index[&op] = topOps.size();
      topOps.push_back(&op);
    }

    DataLayout layout = DataLayout::closest(func);
    SmallVector<Buffer> buffers;
    SmallVector<memref::AllocOp> dead;
    for (auto alloc : llvm::to_vector(body.getOps<memref::AllocOp>())) {
      std::optional<int64_t> size = plannableSize(alloc, layout);
      if (!size)
        continue;
      if (alloc->use_empty()) {
        dead.push_back(alloc);
        continue;
      }
      Buffer buf;
      buf.alloc = alloc;
      buf.size = *size;
      if (!analyzeUses(buf, body, index))
        continue;
      if (buf.start > buf.end) { // only deallocated
        for (Operation *dealloc : buf.deallocs)
          dealloc->erase();
        dead.push_back(alloc);
        continue;
      }
      buf.leader = buffers.size();
      buffers.push_back(std::move(buf));
    }
    for (memref::AllocOp alloc : dead)
      alloc.erase();

    // In place: in program order, so chains (a -> b -> c) join one group.
    DenseMap<Value, unsigned> bufferOf;
    for (auto [i, buf] : llvm::enumerate(buffers))
      bufferOf[buf.alloc.getResult()] = i;
    auto byStart = llvm::to_vector(llvm::seq<unsigned>(0, buffers.size()));
    llvm::stable_sort(byStart, [&](unsigned x, unsigned y) {
      return buffers[x].start < buffers[y].start;
    });
    for (unsigned i : byStart)
      if (auto generic = dyn_cast<linalg::GenericOp>(topOps[buffers[i].start]))
        tryInPlace(generic, i, buffers, bufferOf);

    // One group per leader; members have equal sizes and touching spans.
    SmallVector<Group> groups;
    DenseMap<unsigned, unsigned> groupOf;
    for (unsigned i = 0; i < buffers.size(); ++i) {
      unsigned leader = findLeader(buffers, i);
      auto [it, inserted] = groupOf.try_emplace(leader, groups.size());
      if (inserted) {
        groups.emplace_back();
        groups.back().id = groups.size() - 1;
        groups.back().size = buffers[i].size;
      }
      Group &g = groups[it->second];
      g.start = std::min(g.start, buffers[i].start);
      g.end = std::max(g.end, buffers[i].end);
    }
    int64_t total = placeGroups(groups);
    int64_t bound = lowerBound(groups);

    // Rewrite: the workspace is the new last argument.
    auto wsType = MemRefType::get({total}, IntegerType::get(ctx, 8));
    if (failed(func.insertArgument(func.getNumArguments(), wsType,
                                   DictionaryAttr::get(ctx), func.getLoc()))) {
      func.emitError("cannot add the workspace argument");
      return signalPassFailure();
    }
    Value workspace = body.getArguments().back();
    for (auto [i, buf] : llvm::enumerate(buffers)) {
      const Group &g = groups[groupOf.lookup(findLeader(buffers, i))];
      for (Operation *dealloc : buf.deallocs)
        dealloc->erase();
      memref::AllocOp alloc = buf.alloc;
      OpBuilder b(alloc);
      Location loc = alloc.getLoc();
      Value offset = arith::ConstantIndexOp::create(b, loc, g.offset);
      MemRefType type = alloc.getType();
      Value view = memref::ViewOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()),
          workspace, offset, ValueRange{});
      if (view.getType() != type)
        view = memref::CastOp::create(b, loc, type, view);
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    Builder b(ctx);
    module->setAttr("mlc.workspace_bytes", b.getI64IntegerAttr(total));
    module->setAttr("mlc.workspace_lower_bound_bytes",
                    b.getI64IntegerAttr(bound));
  }
};

} // namespace
