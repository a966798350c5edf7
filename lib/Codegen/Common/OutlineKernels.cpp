//===- OutlineKernels.cpp - each kernel's loop nest in its own function ---===//
//
// After bufferization every kernel is a loop nest inlined in the entry
// function, which becomes one function of hundreds of thousands of LLVM
// instructions: LLVM's loop passes are superlinear in the function's size
// (IndVarSimplify and LoopRotate took 23 of DenseNet-121's 47 s of
// optimization, 44 s of it spent on that one function), and one function
// cannot be compiled in parallel. Each top-level loop nest moves into a
// private noinline function, called where it was.
//
// What the nest reads from the entry function becomes an argument, except
// what can be computed again inside: side-effect-free ops without regions
// (constants, memref.get_global, views and subviews, index arithmetic) are
// cloned into the kernel, so that its arguments are the buffers themselves
// (function arguments, allocations) and scalars loaded at run time.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlc {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "mlc/Codegen/Common/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// True if `op` may be cloned into a kernel instead of passing its result.
bool isRematerializable(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Ops nested in `op` (itself excluded): the size of a loop nest.
int64_t countNested(Operation *op) {
  int64_t n = -1;
  op->walk([&](Operation *) { ++n; });
  return n;
}

struct OutlineKernels : mlc::impl::OutlineKernelsBase<OutlineKernels> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto entryFn = module.lookupSymbol<func::FuncOp>(entry);
    if (!entryFn || entryFn.isExternal())
      return;
    SmallVector<Operation *> nests;
    for (Operation &op : entryFn.getBody().front())
      if (op.getNumRegions() > 0 && op.getNumResults() == 0 &&
          countNested(&op) >= minOps)
        nests.push_back(&op);
    OpBuilder builder(module.getContext());
    SymbolTable symbols(module);
    unsigned index = 0;
    for (Operation *nest : nests)
      outline(builder, symbols, entryFn, nest, index++);
  }

  void outline(OpBuilder &builder, SymbolTable &symbols, func::FuncOp entryFn,
               Operation *nest, unsigned index) {
    // Values used inside the nest and defined outside it (the nest's own
    // operands included), in first-use order.
    llvm::SetVector<Value> used;
    for (Value v : nest->getOperands())
      used.insert(v);
    for (Region &r : nest->getRegions())
      getUsedValuesDefinedAbove(r, used);
    // Split them into arguments and ops to clone (with their own inputs,
    // transitively), the clones in dominance order.
    llvm::SetVector<Value> args;
    llvm::SetVector<Operation *> clones;
    std::function<void(Value)> visit = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def || !isRematerializable(def)) {
        args.insert(v);
        return;
      }
      if (clones.contains(def))
        return;
      for (Value operand : def->getOperands())
        visit(operand);
      clones.insert(def);
    };
    for (Value v : used)
      visit(v);

    SmallVector<Type> argTypes;
    for (Value v : args)
      argTypes.push_back(v.getType());
    builder.setInsertionPoint(entryFn);
    auto kernel = func::FuncOp::create(
        builder, nest->getLoc(),
        (entryFn.getSymName() + "_kernel" + Twine(index)).str(),
        builder.getFunctionType(argTypes, {}));
    kernel.setPrivate();
    // LLVM would inline a function called once straight back.
    kernel->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));
    kernel->setAttr(
        "llvm.linkage",
        LLVM::LinkageAttr::get(builder.getContext(), LLVM::Linkage::Internal));
    symbols.insert(kernel);
    Block *body = kernel.addEntryBlock();
    IRMapping map;
    for (auto [v, arg] : llvm::zip(args, body->getArguments()))
      map.map(v, arg);
    builder.setInsertionPointToStart(body);
    // Topological order: an op's operands are cloned before it.
    SmallVector<Operation *> ordered(clones.begin(), clones.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : ordered)
      builder.clone(*op, map);
    builder.clone(*nest, map);
    func::ReturnOp::create(builder, nest->getLoc());

    builder.setInsertionPoint(nest);
    func::CallOp::create(builder, nest->getLoc(), kernel,
                         llvm::to_vector(args));
    nest->erase();
  }
};

} // namespace
