//===- ImportONNX.h - ONNX model -> graph dialect ---------------*- C++ -*-===//
#ifndef MLC_FRONTEND_ONNX_IMPORTONNX_H
#define MLC_FRONTEND_ONNX_IMPORTONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace mlc::frontend {

struct ONNXImportOptions {
  /// Static shapes for graph inputs whose declared shape has symbolic or
  /// missing dimensions (`--input-shape NAME=1x3x224x224`).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph inputs (or inputs with initializer defaults) frozen to constants
  /// read from a .pb TensorProto file (`--bind NAME=FILE`): how
  /// shape-determining inputs (a Reshape's shape, a Resize's scales) become
  /// compile-time constants.
  std::map<std::string, std::string> bindings;
};

/// Imports an ONNX model (opsets 1-17 of the default domain) into a module
/// with one function @main whose arguments and results carry the graph's
/// input and output names (`mlc.name`). Problems are reported as diagnostics
/// located at "<file>: node '<name>' (<OpType>)" or at the input, output or
/// initializer concerned, and null is returned.
mlir::OwningOpRef<mlir::ModuleOp>
importONNX(mlir::MLIRContext *ctx, llvm::StringRef path,
           const ONNXImportOptions &options = {});

/// Writes the supported-operator table (markdown), generated from the
/// importer's own converter table: docs/supported-ops.md.
void printSupportedONNXOps(llvm::raw_ostream &os);

/// Parses "1x3x224x224" (empty string: a scalar). False on bad syntax.
bool parseShapeSpec(llvm::StringRef text, std::vector<int64_t> &shape);

} // namespace mlc::frontend

#endif // MLC_FRONTEND_ONNX_IMPORTONNX_H
