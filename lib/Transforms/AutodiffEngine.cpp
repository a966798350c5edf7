//===- AutodiffEngine.cpp - reverse-mode differentiation of graph code ----===//
//
// The engine behind graph-autodiff (include/mlc/Transforms/Autodiff.h):
// activity analysis, the reverse walk over the active ops calling their
// VJPOpInterface rules, cotangent accumulation, and the gradient function
// builder. The rules themselves live in lib/Dialect/Graph/GraphVJP*.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Autodiff.h"

#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/VJPUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace mlc::graph {
namespace {

/// Records the ops a rule creates, so the ones nobody uses (cotangents of
/// constant operands) can be erased afterwards. Forwards to the builder's
/// own listener.
struct CreatedOps : public OpBuilder::Listener {
  explicit CreatedOps(OpBuilder::Listener *next) : next(next) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.push_back(op);
    if (next)
      next->notifyOperationInserted(op, previous);
  }
  OpBuilder::Listener *next;
  SmallVector<Operation *> ops;
};

/// Restores the builder's listener on scope exit.
struct ListenerGuard {
  ListenerGuard(OpBuilder &b, OpBuilder::Listener *l)
      : b(b), saved(b.getListener()) {
    b.setListener(l);
  }
  ~ListenerGuard() { b.setListener(saved); }
  OpBuilder &b;
  OpBuilder::Listener *saved;
};

class Differentiator {
public:
  Differentiator(OpBuilder &b) : b(b) {}

  LogicalResult run(Block &body, ArrayRef<Value> wrt,
                    ArrayRef<GradientSeed> seeds,
                    SmallVectorImpl<Value> &grads);

private:
  /// Forward ops: those of `body` before the insertion point.
  SmallVector<Operation *> forwardOps(Block &body);
  void accumulate(Value v, Value cotangent);
  LogicalResult differentiateOp(Operation *op);

  OpBuilder &b;
  DenseSet<Value> varied, useful;
  DenseMap<Value, Value> cotangents;
};

SmallVector<Operation *> Differentiator::forwardOps(Block &body) {
  SmallVector<Operation *> ops;
  Block::iterator end =
      b.getInsertionBlock() == &body ? b.getInsertionPoint() : body.end();
  for (Operation &op : llvm::make_range(body.begin(), end))
    ops.push_back(&op);
  return ops;
}

void Differentiator::accumulate(Value v, Value cotangent) {
  Value &slot = cotangents[v];
  slot = slot ? AddOp::create(b, v.getLoc(), slot, cotangent).getResult()
              : cotangent;
}

/// A short description of which operand makes `op` active.
static std::string activeOperand(Operation *op, const DenseSet<Value> &varied) {
  for (OpOperand &operand : op->getOpOperands())
    if (varied.contains(operand.get()))
      return "operand #" + std::to_string(operand.getOperandNumber());
  return "an operand";
}

LogicalResult Differentiator::differentiateOp(Operation *op) {
  SmallVector<Value> dys;
  bool any = false;
  for (Value r : op->getResults()) {
    Value c = cotangents.lookup(r);
    dys.push_back(c);
    any |= bool(c);
  }
  // Useful only through paths that carry no gradient (e.g. a comparison).
  if (!any)
    return success();
  auto vjp = dyn_cast<VJPOpInterface>(op);
  if (op->getNumRegions() != 0)
    return op->emitOpError()
           << "cannot be differentiated: ops with regions are not supported "
              "("
           << activeOperand(op, varied)
           << " depends on a differentiated argument; autodiff must run "
              "before fusion)";
  if (!vjp)
    return op->emitError() << "cannot differentiate '" << op->getName()
                           << "': it has no gradient rule ("
                           << activeOperand(op, varied)
                           << " depends on a differentiated argument)";
  SmallVector<Value> dxs;
  if (failed(vjp.buildVJP(b, dys, dxs)))
    return failure();
  if (dxs.size() != op->getNumOperands())
    return op->emitError() << "internal error: the gradient rule of '"
                           << op->getName() << "' returned " << dxs.size()
                           << " cotangents for " << op->getNumOperands()
                           << " operands";
  for (auto [i, operand, dx] : llvm::enumerate(op->getOperands(), dxs)) {
    if (!dx || !varied.contains(operand))
      continue;
    if (dx.getType() != operand.getType())
      return op->emitError()
             << "internal error: the gradient rule of '" << op->getName()
             << "' returned a cotangent of type " << dx.getType()
             << " for operand #" << i << " of type " << operand.getType();
    accumulate(operand, dx);
  }
  return success();
}

LogicalResult Differentiator::run(Block &body, ArrayRef<Value> wrt,
                                  ArrayRef<GradientSeed> seeds,
                                  SmallVectorImpl<Value> &grads) {
  SmallVector<Operation *> ops = forwardOps(body);

  // Varied: float values reachable from `wrt`; NonDifferentiable results
  // are constants.
  for (Value v : wrt) {
    if (!isFloatTensor(v))
      return emitError(v.getLoc())
             << "cannot differentiate with respect to a value of type "
             << v.getType() << " (not a float tensor)";
    varied.insert(v);
  }
  for (Operation *op : ops) {
    if (isNonDifferentiable(op) ||
        llvm::none_of(op->getOperands(),
                      [&](Value v) { return varied.contains(v); }))
      continue;
    for (Value r : op->getResults())
      if (isFloatTensor(r))
        varied.insert(r);
  }
  // Useful: values the seeds depend on.
  for (const GradientSeed &s : seeds)
    useful.insert(s.value);
  for (Operation *op : llvm::reverse(ops))
    if (llvm::any_of(op->getResults(),
                     [&](Value r) { return useful.contains(r); }))
      useful.insert(op->operand_begin(), op->operand_end());

  CreatedOps created(b.getListener());
  ListenerGuard guard(b, &created);
  for (const GradientSeed &s : seeds) {
    if (s.cotangent.getType() != s.value.getType())
      return emitError(s.value.getLoc())
             << "gradient seed of type " << s.cotangent.getType()
             << " for a value of type " << s.value.getType();
    if (varied.contains(s.value))
      accumulate(s.value, s.cotangent);
  }

  // Active ops, last to first. On failure the partial reverse pass is
  // erased, so the caller's IR is left as it was.
  for (Operation *op : llvm::reverse(ops)) {
    if (isNonDifferentiable(op))
      continue;
    bool active = llvm::any_of(op->getResults(), [&](Value r) {
      return varied.contains(r) && useful.contains(r);
    });
    if (active && failed(differentiateOp(op))) {
      for (Operation *newOp : llvm::reverse(created.ops))
        newOp->erase();
      return failure();
    }
  }

  grads.clear();
  for (Value v : wrt) {
    Value g = cotangents.lookup(v);
    if (!g) {
      auto type = tensorTypeOf(v);
      g = splatConstant(b, v.getLoc(), type.getElementType(), type.getShape(),
                        0.0);
    }
    grads.push_back(g);
  }

  // Rules build every operand's cotangent; drop those of constant operands.
  DenseSet<Value> keep(grads.begin(), grads.end());
  for (Operation *op : llvm::reverse(created.ops)) {
    if (!op->use_empty() || llvm::any_of(op->getResults(), [&](Value r) {
          return keep.contains(r);
        }))
      continue;
    op->erase();
  }
  return success();
}

} // namespace

LogicalResult differentiate(OpBuilder &builder, Block &body,
                            ArrayRef<Value> wrt, ArrayRef<GradientSeed> seeds,
                            SmallVectorImpl<Value> &grads) {
  return Differentiator(builder).run(body, wrt, seeds, grads);
}

FailureOr<func::FuncOp> buildGradientFunction(func::FuncOp func,
                                              ArrayRef<unsigned> wrt,
                                              StringRef gradName) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot differentiate '")
           << func.getSymName() << "': it must have a single block";
  unsigned numArgs = func.getNumArguments();
  SmallVector<unsigned> args(wrt);
  if (args.empty()) {
    for (unsigned i = 0; i < numArgs; ++i)
      if (isFloatTensor(func.getArgument(i)))
        args.push_back(i);
    if (args.empty())
      return func.emitError("cannot differentiate '")
             << func.getSymName() << "': it has no float tensor argument";
  }
  for (unsigned i : args) {
    if (i >= numArgs)
      return func.emitError("wrt index ")
             << i << " is out of range: '" << func.getSymName() << "' has "
             << numArgs << " arguments";
    if (!isFloatTensor(func.getArgument(i)))
      return func.emitError("wrt index ")
             << i << ": argument of type " << func.getArgument(i).getType()
             << " is not a float tensor";
  }
  std::string name =
      gradName.empty() ? (func.getSymName() + "_grad").str() : gradName.str();
  auto module = func->getParentOfType<ModuleOp>();
  if (module && SymbolTable::lookupSymbolIn(module, name))
    return func.emitError("cannot build the gradient function: symbol '")
           << name << "' already exists";

  auto *ret = func.getBody().front().getTerminator();
  FunctionType ftype = func.getFunctionType();
  SmallVector<Type> inputs(ftype.getInputs()), results(ftype.getResults());
  SmallVector<unsigned> seeded;
  for (auto [i, t] : llvm::enumerate(ftype.getResults())) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (rt && isa<FloatType>(rt.getElementType())) {
      inputs.push_back(t);
      seeded.push_back(i);
    }
  }
  for (unsigned i : args)
    results.push_back(ftype.getInput(i));

  OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto grad = func::FuncOp::create(b, func.getLoc(), name,
                                   b.getFunctionType(inputs, results));
  grad.setVisibility(func.getVisibility());
  Block *body = grad.addEntryBlock();

  // Names: arguments and results keep theirs; cotangents get a "d" prefix.
  MLIRContext *ctx = func.getContext();
  auto nameOf = [&](DictionaryAttr attrs) -> StringAttr {
    return attrs ? attrs.getAs<StringAttr>("mlc.name") : StringAttr();
  };
  auto setName = [&](auto setter, unsigned i, StringAttr base, bool prefixed) {
    if (base)
      setter(i, StringAttr::get(ctx, (prefixed ? "d" : "") + base.str()));
  };
  for (unsigned i = 0; i < numArgs; ++i)
    if (DictionaryAttr attrs = func.getArgAttrDict(i))
      grad.setArgAttrs(i, attrs);
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (DictionaryAttr attrs = func.getResultAttrDict(i))
      grad.setResultAttrs(i, attrs);
  auto setArgName = [&](unsigned i, StringAttr n) {
    grad.setArgAttr(i, "mlc.name", n);
  };
  auto setResultName = [&](unsigned i, StringAttr n) {
    grad.setResultAttr(i, "mlc.name", n);
  };
  for (auto [k, r] : llvm::enumerate(seeded))
    setName(setArgName, numArgs + k, nameOf(func.getResultAttrDict(r)), true);
  for (auto [k, a] : llvm::enumerate(args))
    setName(setResultName, func.getNumResults() + k,
            nameOf(func.getArgAttrDict(a)), true);

  // The forward computation, then the reverse pass.
  IRMapping map;
  for (unsigned i = 0; i < numArgs; ++i)
    map.map(func.getArgument(i), body->getArgument(i));
  b.setInsertionPointToEnd(body);
  for (Operation &op : func.getBody().front().without_terminator())
    b.clone(op, map);
  SmallVector<Value> outs;
  for (Value v : ret->getOperands())
    outs.push_back(map.lookupOrDefault(v));
  SmallVector<GradientSeed> seeds;
  for (auto [k, r] : llvm::enumerate(seeded))
    seeds.push_back({outs[r], body->getArgument(numArgs + k)});
  SmallVector<Value> wrtValues;
  for (unsigned i : args)
    wrtValues.push_back(body->getArgument(i));
  SmallVector<Value> grads;
  if (failed(differentiate(b, *body, wrtValues, seeds, grads))) {
    grad.erase();
    return failure();
  }
  outs.append(grads.begin(), grads.end());
  func::ReturnOp::create(b, ret->getLoc(), outs);
  return grad;
}

} // namespace mlc::graph
