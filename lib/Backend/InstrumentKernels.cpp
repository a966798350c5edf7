//===- InstrumentKernels.cpp - profiling brackets around kernels ----------===//
//
// Every kernel of the entry function gets a call into the runtime before
// and after it, and the module records the kernel table (name, ops, FLOPs)
// that mlc-emit-model-abi exports. Done on the graph dialect, where the ops
// a kernel computes and their work are known exactly; the lowering replaces
// each op in place, so the calls keep bracketing its loops. See the pass
// description in include/mlc/Backend/Passes.td and docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "llvm/Support/Path.h"

namespace mlc {
#define GEN_PASS_DEF_INSTRUMENTKERNELS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

constexpr const char *kBegin = "mlc_profile_begin";
constexpr const char *kEnd = "mlc_profile_end";
/// Names and op lists longer than this are shortened.
constexpr size_t kMaxText = 60;

/// Where a kernel's op comes from. `named` is false for a model.json node
/// without a name (its JSON path) and a plain .mlir location (file:line):
/// those name a kernel only when none of its ops has a real name.
struct SourceName {
  std::string text;
  bool named = false;
};

/// The node in an importer's location: `node 'conv1' (Conv)` (ONNX),
/// `nodes[3] (conv2d 'conv1')` or `nodes[4] (relu)` (model.json); any other
/// name as it is.
SourceName nodeName(StringRef loc) {
  if (loc.consume_front("node '")) {
    size_t end = loc.rfind("' (");
    return {(end == StringRef::npos ? loc : loc.take_front(end)).str(), true};
  }
  if (loc.ends_with("')")) {
    size_t start = loc.find(" '");
    if (start != StringRef::npos)
      return {loc.slice(start + 2, loc.size() - 2).str(), true};
  }
  if (loc.ends_with(")")) {
    size_t start = loc.find(" (");
    if (start != StringRef::npos && start > 0)
      return {loc.take_front(start).str(), false};
  }
  return {loc.str(), true};
}

void collectNames(Location loc, SmallVectorImpl<SourceName> &names) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    names.push_back(nodeName(name.getName().getValue()));
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      collectNames(inner, names);
  } else if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    collectNames(call.getCallee(), names);
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    names.push_back({(llvm::sys::path::filename(file.getFilename().getValue()) +
                      ":" + Twine(file.getLine()))
                         .str(),
                     false});
  }
}

/// The source of a location: its first real name, else its first path or
/// file:line; empty text when it has none.
SourceName sourceName(Location loc) {
  SmallVector<SourceName> names;
  collectNames(loc, names);
  for (SourceName &n : names)
    if (n.named)
      return n;
  return names.empty() ? SourceName() : names.front();
}

/// Joins `parts` with '+'; when that is too long, as many leading parts as
/// fit and "+N more", cut short with "..." if even the first is too long.
std::string joinShort(ArrayRef<std::string> parts) {
  std::string text = llvm::join(parts, "+");
  if (text.size() <= kMaxText)
    return text;
  auto more = [&](size_t used) {
    return "+" + std::to_string(parts.size() - used) + " more";
  };
  text = parts.front();
  size_t used = 1;
  for (; used < parts.size(); ++used) {
    std::string next = text + "+" + parts[used];
    if (next.size() + more(used + 1).size() > kMaxText)
      break;
    text = std::move(next);
  }
  std::string tail = used < parts.size() ? more(used) : "";
  if (text.size() + tail.size() > kMaxText)
    text = text.substr(0, kMaxText - tail.size() - 3) + "...";
  return text + tail;
}

/// One line of the table's text: newlines or tabs in names would break it.
std::string oneLine(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
  return s;
}

bool isGraphKernelOp(Operation *op) {
  return isa<mlc::graph::GraphDialect>(op->getDialect()) &&
         !isa<mlc::graph::ConstantOp, mlc::graph::YieldOp>(op) &&
         !mlc::graph::isView(op);
}

struct Kernel {
  Operation *op;
  std::string name, ops;
  int64_t flops = 0;
};

Kernel describe(Operation *op, unsigned index) {
  Kernel k{op, "", "", 0};
  SmallVector<Operation *> computed;
  if (auto group = dyn_cast<mlc::graph::FusionGroupOp>(op)) {
    for (Operation &inner : group.getBody().front().without_terminator())
      if (isGraphKernelOp(&inner))
        computed.push_back(&inner);
  } else {
    computed.push_back(op);
  }
  // Real names in order, each once; paths and file:line only if none.
  SmallVector<std::string> names[2];
  auto addName = [&](Location loc) {
    SourceName source = sourceName(loc);
    std::string text = oneLine(source.text);
    auto &list = names[source.named];
    if (!text.empty() && !llvm::is_contained(list, text))
      list.push_back(std::move(text));
  };
  SmallVector<std::string> ops;
  for (Operation *c : computed) {
    k.flops += mlc::graph::estimateFlops(c);
    ops.push_back(c->getName().stripDialect().str());
    addName(c->getLoc());
  }
  // A group whose ops carry no location of their own may still have one.
  if (names[0].empty() && names[1].empty())
    addName(op->getLoc());
  ArrayRef<std::string> best = names[1].empty() ? names[0] : names[1];
  k.name = best.empty() ? "kernel" + std::to_string(index) : joinShort(best);
  k.ops = ops.empty() ? std::string("none") : joinShort(ops);
  // The table's fields are separated by spaces; only the name (last) may
  // contain them.
  llvm::replace(k.ops, ' ', '_');
  return k;
}

struct InstrumentKernels : mlc::impl::InstrumentKernelsBase<InstrumentKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fail = [&](const Twine &msg) {
      module.emitError(msg);
      signalPassFailure();
    };
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func)
      return fail("model entry function '" + entry + "' not found");
    if (module->hasAttr("mlc.kernels"))
      return fail("the module is already instrumented (mlc.kernels is set)");
    if (!func.getBody().hasOneBlock())
      return fail("entry function '" + entry + "' must have one block");

    SmallVector<Kernel> kernels;
    for (Operation &op : func.getBody().front())
      if (isGraphKernelOp(&op))
        kernels.push_back(describe(&op, kernels.size()));

    MLIRContext *ctx = &getContext();
    auto i32 = IntegerType::get(ctx, 32);
    auto fnType = FunctionType::get(ctx, {i32}, {});
    OpBuilder b(ctx);
    for (const char *name : {kBegin, kEnd}) {
      if (Operation *existing = module.lookupSymbol(name)) {
        auto fn = dyn_cast<func::FuncOp>(existing);
        if (!fn || fn.getFunctionType() != fnType)
          return fail(Twine("symbol '") + name + "' exists with another type");
        continue;
      }
      b.setInsertionPointToEnd(module.getBody());
      func::FuncOp::create(b, module.getLoc(), name, fnType).setPrivate();
    }

    std::string table;
    for (auto [i, k] : llvm::enumerate(kernels)) {
      Location loc = k.op->getLoc();
      auto call = [&](const char *callee) {
        Value index = arith::ConstantIntOp::create(b, loc, int64_t(i), 32);
        func::CallOp::create(b, loc, callee, TypeRange{}, ValueRange{index});
      };
      b.setInsertionPoint(k.op);
      call(kBegin);
      b.setInsertionPointAfter(k.op);
      call(kEnd);
      table += std::to_string(k.flops) + " " + k.ops + " " + k.name + "\n";
    }
    module->setAttr("mlc.kernels", StringAttr::get(ctx, table));
  }
};

} // namespace
