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

#include <vector>

namespace mlc::frontend {

/// The attribute for a weight of `type` from its raw little-endian bytes
/// (bools one byte each): a dense attribute when small or bool, else a
/// dense_resource blob named after `name`.
mlir::ElementsAttr makeWeightAttr(mlir::RankedTensorType type,
                                  llvm::ArrayRef<char> bytes,
                                  llvm::StringRef name);

/// The same, taking ownership of `bytes`: a blob keeps the vector's buffer
/// instead of a copy (the buffer must be aligned for the element type, as
/// operator new's are).
mlir::ElementsAttr makeWeightAttr(mlir::RankedTensorType type,
                                  std::vector<char> &&bytes,
                                  llvm::StringRef name);

/// The alignment a weight blob of `type` declares: its element size,
/// rounded up to a power of two.
size_t elementAlignment(mlir::RankedTensorType type);

} // namespace mlc::frontend

#endif // MLC_FRONTEND_COMMON_WEIGHTATTR_H
