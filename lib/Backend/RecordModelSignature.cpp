//===- RecordModelSignature.cpp - capture the entry signature -------------===//
//
// The runtime needs the names, dtypes and shapes of the model's inputs and
// outputs. They are read here, at tensor level, because bufferization and
// the LLVM lowering later rewrite the entry function's signature. It also
// marks the inputs read-only for bufferization, and gives zero-size inputs
// and outputs the type tensor<0xT>: their pointers are never read or
// written, and the bare-pointer calling convention refuses memrefs with a
// zero dim after the first (memref<3x0x5xf32>).
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlc {
#define GEN_PASS_DEF_RECORDMODELSIGNATURE
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

std::optional<std::string> dtypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isSignlessInteger(64))
    return "i64";
  if (t.isSignlessInteger(32))
    return "i32";
  if (t.isSignlessInteger(16))
    return "i16";
  if (t.isSignlessInteger(8))
    return "i8";
  if (auto i = dyn_cast<IntegerType>(t);
      i && i.isUnsigned() &&
      llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth()))
    return "u" + std::to_string(i.getWidth());
  if (t.isSignlessInteger(1))
    return "bool";
  return std::nullopt;
}

struct RecordModelSignature
    : mlc::impl::RecordModelSignatureBase<RecordModelSignature> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func) {
      module.emitError() << "model entry function '" << entry
                         << "' not found";
      return signalPassFailure();
    }
    std::string text;
    auto addLine = [&](StringRef kind, Type type, StringAttr nameAttr,
                       StringRef defaultName) -> LogicalResult {
      auto tensor = dyn_cast<RankedTensorType>(type);
      std::optional<std::string> dtype =
          tensor ? dtypeName(tensor.getElementType()) : std::nullopt;
      if (!tensor || !tensor.hasStaticShape() || !dtype)
        return func.emitError() << "entry function " << kind << " type " << type
                                << " is not a statically shaped tensor of "
                                   "f32, f64, f16, bf16, i64, i32, i16, i8, "
                                   "ui8, ui16, ui32, ui64 or i1";
      std::string name = nameAttr ? nameAttr.str() : defaultName.str();
      if (name.empty() || name.find('\n') != std::string::npos)
        return func.emitError()
               << kind << " name must be non-empty and have no newline";
      text += (kind + " " + *dtype + " [").str();
      for (auto [i, d] : llvm::enumerate(tensor.getShape()))
        text += (i ? "," : "") + std::to_string(d);
      text += "] " + name + "\n";
      return success();
    };
    // Trainable models mark runtime-owned variables with `mlc.kind`.
    auto kindOf = [&](StringAttr attr, StringRef dflt,
                      ArrayRef<StringRef> allowed) -> FailureOr<StringRef> {
      if (!attr)
        return dflt;
      if (!llvm::is_contained(allowed, attr.getValue())) {
        func.emitError() << "unknown mlc.kind '" << attr.getValue() << "'";
        return failure();
      }
      return attr.getValue();
    };
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto kind = kindOf(func.getArgAttrOfType<StringAttr>(i, "mlc.kind"),
                         "in", {"in", "param", "buffer", "state"});
      if (failed(kind) ||
          failed(addLine(*kind, func.getArgument(i).getType(),
                         func.getArgAttrOfType<StringAttr>(i, "mlc.name"),
                         "input" + std::to_string(i))))
        return signalPassFailure();
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i) {
      auto kind = kindOf(func.getResultAttrOfType<StringAttr>(i, "mlc.kind"),
                         "out", {"out", "update"});
      if (failed(kind) ||
          failed(addLine(*kind, func.getResultTypes()[i],
                         func.getResultAttrOfType<StringAttr>(i, "mlc.name"),
                         "output" + std::to_string(i))))
        return signalPassFailure();
    }
    module->setAttr("mlc.signature", StringAttr::get(&getContext(), text));
    // Inputs are caller-owned and read-only: bufferization must never write
    // into them in place.
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.setArgAttr(i, "bufferization.writable",
                      BoolAttr::get(&getContext(), false));
    flattenZeroSizeIO(func);
  }

  static bool isZeroSize(Type type) {
    auto t = dyn_cast<RankedTensorType>(type);
    return t && t.getNumElements() == 0 && t.getShape() != ArrayRef<int64_t>{0};
  }
  static RankedTensorType flat(Type type) {
    return RankedTensorType::get({0},
                                 cast<RankedTensorType>(type).getElementType());
  }

  /// A zero-size value has one possible content: reads of such an input
  /// become a tensor.empty of its type, and such an output returns an
  /// empty tensor<0xT>.
  void flattenZeroSizeIO(func::FuncOp func) {
    if (func.isExternal())
      return;
    OpBuilder b(func.getBody());
    for (BlockArgument arg : func.getArguments()) {
      if (!isZeroSize(arg.getType()))
        continue;
      if (!arg.use_empty()) {
        auto type = cast<RankedTensorType>(arg.getType());
        Value empty = tensor::EmptyOp::create(b, arg.getLoc(), type.getShape(),
                                              type.getElementType());
        arg.replaceAllUsesWith(empty);
      }
      arg.setType(flat(arg.getType()));
    }
    func.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands())
        if (isZeroSize(operand.get().getType()))
          operand.set(tensor::EmptyOp::create(
              b, ret.getLoc(), ArrayRef<int64_t>{0},
              flat(operand.get().getType()).getElementType()));
    });
    SmallVector<Type> results =
        llvm::map_to_vector(func.getResultTypes(), [](Type t) {
          return isZeroSize(t) ? Type(flat(t)) : t;
        });
    func.setType(FunctionType::get(func.getContext(),
                                   func.getBody().getArgumentTypes(), results));
  }
};
} // namespace
