//===- WeightAttr.h - weight bytes -> constant attribute --------*- C++ -*-===//
//
// Shared by the JSON and the ONNX importers, which both read weights as raw
// little-endian bytes.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_FRONTEND_COMMON_WEIGHTATTR_H
#define MLC_FRONTEND_COMMON_WEIGHTATTR_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlc::frontend {

/// The attribute for a weight of `type` from its raw little-endian bytes
/// (bools one byte each): a dense attribute when small or bool, else a
/// dense_resource blob named after `name`.
mlir::ElementsAttr makeWeightAttr(mlir::RankedTensorType type,
                                  llvm::ArrayRef<char> bytes,
                                  llvm::StringRef name);

} // namespace mlc::frontend

#endif // MLC_FRONTEND_COMMON_WEIGHTATTR_H
