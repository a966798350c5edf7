//===- PackWeightGlobals.cpp - large constant globals as byte arrays ------===//
//
// MLIR translates a constant of type !llvm.array<512 x array<512 x array<3 x
// array<3 x f32>>>> into one LLVM ConstantDataArray per innermost row and a
// ConstantArray per outer row: millions of uniqued constants for ResNet-18's
// weights, which LLVM then walks, emits element by element and frees one at a
// time. A byte array with the same bytes translates to a single constant that
// the AsmPrinter emits as one block. Globals are only ever used through their
// address (pointers are opaque), so the type change is invisible to code.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlc {
#define GEN_PASS_DEF_PACKWEIGHTGLOBALS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The bytes of `global`'s initializer as a tensor<N x i8> attribute sharing
/// the original storage, or null when the value is not plain raw data.
ElementsAttr asByteTensor(LLVM::GlobalOp global, int64_t &numBytes) {
  auto value = dyn_cast_or_null<ElementsAttr>(global.getValueAttr());
  if (!value)
    return nullptr;
  Type elementType = value.getShapedType().getElementType();
  // i1 and sub-byte types are not stored one element per byte(s).
  if (!elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0)
    return nullptr;
  MLIRContext *ctx = global.getContext();
  auto bytesType = [&](int64_t n) {
    return RankedTensorType::get({n}, IntegerType::get(ctx, 8));
  };
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return nullptr;
    numBytes = blob->getData().size();
    if (numBytes * 8 != value.getNumElements() *
                            int64_t(elementType.getIntOrFloatBitWidth()))
      return nullptr;
    // The blob is shared: only the attribute's type changes.
    return DenseResourceElementsAttr::get(bytesType(numBytes),
                                          resource.getRawHandle());
  }
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(value);
  if (!dense || dense.isSplat())
    return nullptr;
  ArrayRef<char> raw = dense.getRawData();
  numBytes = raw.size();
  return DenseElementsAttr::getFromRawBuffer(bytesType(numBytes), raw);
}

struct PackWeightGlobals
    : mlc::impl::PackWeightGlobalsBase<PackWeightGlobals> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!global.getConstant() ||
          !isa<LLVM::LLVMArrayType>(global.getGlobalType()))
        continue;
      int64_t numBytes = 0;
      ElementsAttr bytes = asByteTensor(global, numBytes);
      if (!bytes || numBytes < minBytes || numBytes == 0)
        continue;
      global.setGlobalType(
          LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), numBytes));
      global.setValueAttr(bytes);
      if (!section.empty())
        global.setSectionAttr(StringAttr::get(ctx, section));
    }
  }
};

} // namespace
