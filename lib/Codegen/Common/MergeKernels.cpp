//===- MergeKernels.cpp - one function per distinct kernel ----------------===//
//
// After mlc-outline-kernels, kernels that compute the same thing on other
// data are separate functions: ResNet-50's 16 bottleneck blocks repeat a
// few shapes, DenseNet's layers repeat within a block, and each copy went
// through the LLVM conversions, optimization and code generation again.
// Such kernels differ only in which weights they read (memref.get_global)
// and where in the workspace their buffers are (memref.view at a constant
// byte shift): both have identity layouts, so they can be arguments. Each
// kernel's canonical form has them as extra arguments; kernels with equal
// forms share one function, called with their own weights and views.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlc {
#define GEN_PASS_DEF_MERGEKERNELS
#include "mlc/Codegen/Common/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// What a kernel reads that another copy of it reads elsewhere: a weight
/// global, or a view of one of its buffer arguments at a constant shift.
bool isDataAddress(Operation *op, Block &entry) {
  if (isa<memref::GetGlobalOp>(op))
    return true;
  auto view = dyn_cast<memref::ViewOp>(op);
  if (!view || !view.getSizes().empty())
    return false;
  auto src = dyn_cast<BlockArgument>(view.getSource());
  return src && src.getOwner() == &entry &&
         matchPattern(view.getByteShift(), m_Constant());
}

/// A kernel with its data addresses made arguments (appended after its
/// own), not inserted in the module, and the text that identifies it.
struct Canonical {
  func::FuncOp kernel;           // the original
  func::CallOp call;             // its one call, in the entry function
  func::FuncOp form;             // detached
  SmallVector<Operation *> data; // in `kernel`, one per extra argument
  std::string key;
};

Canonical canonicalize(func::FuncOp kernel, func::CallOp call) {
  Canonical c;
  c.kernel = kernel;
  c.call = call;
  Block &entry = kernel.getBody().front();
  // The arguments in the order the kernel first reads them: where the
  // memory plan happened to create the views (and so their order in the
  // entry block) differs between copies of a kernel, their uses do not.
  llvm::SmallPtrSet<Operation *, 8> isData;
  for (Operation &op : entry)
    if (isDataAddress(&op, entry))
      isData.insert(&op);
  llvm::SetVector<Operation *> data;
  kernel.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && isData.contains(def))
        data.insert(def);
  });
  for (Operation &op : entry) // unused ones last
    if (isData.contains(&op))
      data.insert(&op);
  c.data.assign(data.begin(), data.end());
  IRMapping map;
  c.form = cast<func::FuncOp>(kernel->clone(map));
  Block &body = c.form.getBody().front();
  for (Operation *op : c.data) {
    Value old = map.lookup(op->getResult(0));
    old.replaceAllUsesWith(body.addArgument(old.getType(), op->getLoc()));
    old.getDefiningOp()->erase();
  }
  c.form.setFunctionType(
      FunctionType::get(kernel.getContext(), body.getArgumentTypes(), {}));
  // The byte shifts' constants are dead now; the remaining constants are
  // put in one order, whatever order folding created them in.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isOpTriviallyDead(&op))
      op.erase();
  SmallVector<std::pair<std::string, Operation *>> constants;
  for (Operation &op : body) {
    Attribute value;
    if (op.getNumResults() == 1 && matchPattern(&op, m_Constant(&value))) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << op.getName() << ' ' << value << ' ' << op.getResult(0).getType();
      constants.push_back({text, &op});
    }
  }
  llvm::stable_sort(constants,
                    [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &entryOp : llvm::reverse(constants))
    entryOp.second->moveBefore(&body, body.begin());
  c.form.setSymName("kernel");
  llvm::raw_string_ostream os(c.key);
  c.form->print(os, OpPrintingFlags().useLocalScope());
  return c;
}

struct MergeKernels : mlc::impl::MergeKernelsBase<MergeKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto entryFn = module.lookupSymbol<func::FuncOp>(entry);
    if (!entryFn || entryFn.isExternal())
      return;
    std::string prefix = entry + "_kernel";
    SmallVector<Canonical> all; // owns the keys of `classes`
    llvm::MapVector<StringRef, SmallVector<Canonical>> classes;
    // Every call in the module, by callee, in one walk: only a kernel
    // called once, from the entry function, is rewritten.
    llvm::DenseMap<StringRef, SmallVector<func::CallOp, 1>> callsTo;
    module.walk(
        [&](func::CallOp call) { callsTo[call.getCallee()].push_back(call); });
    SmallVector<std::pair<func::FuncOp, func::CallOp>> kernels;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      auto calls = callsTo.find(kernel.getSymName());
      if (kernel.isPrivate() && !kernel.isExternal() &&
          kernel.getSymName().starts_with(prefix) && calls != callsTo.end() &&
          calls->second.size() == 1 &&
          calls->second.front()->getParentOfType<func::FuncOp>() == entryFn)
        kernels.push_back({kernel, calls->second.front()});
    }
    // Each canonical form is a detached clone, printed: independent of the
    // others, so on the context's threads (DenseNet-121: 245 kernels).
    all.resize(kernels.size());
    parallelFor(module.getContext(), 0, kernels.size(), [&](size_t i) {
      all[i] = canonicalize(kernels[i].first, kernels[i].second);
    });
    for (Canonical &c : all)
      classes[c.key].push_back(c);

    OpBuilder b(module.getContext());
    for (auto &[key, members] : classes) {
      if (members.size() < 2) {
        members.front().form->erase();
        continue;
      }
      Canonical &first = members.front();
      func::FuncOp shared = first.form;
      shared.setSymName(first.kernel.getSymName());
      for (Canonical &m : members) {
        func::CallOp call = m.call;
        b.setInsertionPoint(call);
        SmallVector<Value> operands(call.getOperands());
        IRMapping callMap;
        for (auto [arg, operand] :
             llvm::zip(m.kernel.getArguments(), call.getOperands()))
          callMap.map(arg, operand);
        for (Operation *op : m.data) {
          // The view's shift is a constant: clone it with the view.
          for (Value operand : op->getOperands())
            if (!callMap.contains(operand))
              b.clone(*operand.getDefiningOp(), callMap);
          operands.push_back(b.clone(*op, callMap)->getResult(0));
        }
        func::CallOp::create(b, call.getLoc(), shared.getSymName(), TypeRange{},
                             operands);
        call.erase();
        if (&m != &first)
          m.form->erase();
      }
      // In the first one's place (its name too, once it is gone).
      b.setInsertionPoint(first.kernel);
      b.insert(shared);
      for (Canonical &m : members)
        m.kernel.erase();
      ++merged;
      removed += members.size() - 1;
    }
  }
};

} // namespace
