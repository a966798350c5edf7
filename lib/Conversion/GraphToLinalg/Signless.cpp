//===- Signless.cpp - unsigned graph types become signless ----------------===//
//
// Graph ops may carry ui8 tensors (quantized values); arith and linalg
// take signless integers only. Patterns that meet a ui8 operand view it as
// i8 through an unrealized cast and give their results the ui8 type back
// the same way, so that the other patterns, and ops the conversion leaves
// (fusion groups, function boundaries), see consistent types. Once all
// patterns ran, every type becomes signless and the casts vanish.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace mlc::lowering {

Type signlessType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    Type elt = signlessType(shaped.getElementType());
    return elt == shaped.getElementType() ? type : shaped.clone(elt);
  }
  if (auto fn = dyn_cast<FunctionType>(type)) {
    auto map = [](TypeRange types) {
      return llvm::map_to_vector(types, [](Type t) { return signlessType(t); });
    };
    return FunctionType::get(type.getContext(), map(fn.getInputs()),
                             map(fn.getResults()));
  }
  if (auto i = dyn_cast<IntegerType>(type); i && !i.isSignless())
    return IntegerType::get(type.getContext(), i.getWidth());
  return type;
}

Value toSignless(OpBuilder &b, Location loc, Value v) {
  return fromSignless(b, loc, v, signlessType(v.getType()));
}

Value fromSignless(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return UnrealizedConversionCastOp::create(b, loc, type, v).getResult(0);
}

bool isUnsignedTensor(Value v) {
  return getElementTypeOrSelf(v.getType()).isUnsignedInteger();
}

Value toI32(OpBuilder &b, Location loc, Value x, bool isUnsigned) {
  Type i32 = b.getI32Type();
  if (x.getType() == i32)
    return x;
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, i32, x);
  return arith::ExtSIOp::create(b, loc, i32, x);
}

void makeIntegersSignless(Operation *root) {
  auto fix = [](Value v) { v.setType(signlessType(v.getType())); };
  root->walk([&](Operation *op) {
    llvm::for_each(op->getResults(), fix);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::for_each(block.getArguments(), fix);
    if (auto fn = dyn_cast<FunctionOpInterface>(op))
      fn.setType(signlessType(fn.getFunctionType()));
  });
  root->walk([](UnrealizedConversionCastOp cast) {
    if (cast->getNumOperands() == 1 && cast->getNumResults() == 1 &&
        cast.getOperand(0).getType() == cast.getResult(0).getType()) {
      cast.getResult(0).replaceAllUsesWith(cast.getOperand(0));
      cast.erase();
    }
  });
}

} // namespace mlc::lowering
