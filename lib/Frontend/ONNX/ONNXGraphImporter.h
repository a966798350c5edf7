//===- ONNXGraphImporter.h - the ONNX graph walk ----------------*- C++ -*-===//
//
// The state of one import: the value of each ONNX name, the builder, the
// locations, and the compile-time constants known so far. Shared by
// ImportONNX.cpp (the walk) and ONNXNodeContext.cpp (what a converter sees).
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_FRONTEND_ONNX_ONNXGRAPHIMPORTER_H
#define MLC_LIB_FRONTEND_ONNX_ONNXGRAPHIMPORTER_H

#include "ONNXImporter.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace mlc::frontend {

class ONNXGraphImporter {
public:
  /// The initializers' data is moved into the constants (not copied).
  ONNXGraphImporter(mlir::MLIRContext *ctx, onnx::Model &model,
                    const ONNXImportOptions &options)
      : ctx(ctx), model(model), options(options), builder(ctx) {}

  mlir::OwningOpRef<mlir::ModuleOp> run();

  mlir::Location namedLoc(const llvm::Twine &what) {
    return mlir::NameLoc::get(mlir::StringAttr::get(ctx, what.str()),
                              mlir::FileLineColLoc::get(ctx, model.path, 0, 0));
  }
  mlir::Location nodeLoc(const onnx::Node &node) {
    return namedLoc("node '" + node.displayName + "' (" + node.opType + ")");
  }

  mlir::Value lookup(llvm::StringRef name) const { return values.lookup(name); }
  const Sequence *lookupSequence(llvm::StringRef name) const {
    auto it = sequences.find(name);
    return it == sequences.end() ? nullptr : &it->second;
  }
  bool isDefined(llvm::StringRef name) const {
    return values.count(name) || sequences.count(name);
  }
  std::optional<graph::HostTensor> tryConstant(mlir::Value v);
  /// Names of the graph inputs `v` is computed from.
  llvm::SmallVector<std::string> dependentInputs(mlir::Value v);

  /// Imports `graph` (a node's subgraph) inline at the builder's insertion
  /// point with its inputs bound to `inputs`, and returns its outputs. Names
  /// of the enclosing graphs stay visible; the subgraph's own do not leak.
  mlir::FailureOr<llvm::SmallVector<ONNXValue>>
  importSubgraph(const onnx::Graph &graph, llvm::ArrayRef<ONNXValue> inputs,
                 mlir::Location loc, llvm::StringRef what);

  mlir::MLIRContext *ctx;
  onnx::Model &model;
  const ONNXImportOptions &options;
  mlir::OpBuilder builder;
  int64_t opset = 0;

private:
  mlir::LogicalResult
  importInputs(llvm::SmallVectorImpl<mlir::Type> &argTypes,
               llvm::SmallVectorImpl<std::string> &argNames);
  mlir::LogicalResult importInitializers();
  mlir::FailureOr<llvm::SmallVector<const onnx::Node *>>
  sortNodes(llvm::ArrayRef<onnx::Node> nodes);
  mlir::LogicalResult importNode(const onnx::Node &node);
  mlir::FailureOr<mlir::RankedTensorType> tensorType(const onnx::Tensor &t,
                                                     mlir::Location loc,
                                                     const llvm::Twine &what);
  /// The constant for `--bind name=FILE`, checked against the declared
  /// element type and (static) dims.
  mlir::FailureOr<mlir::Value> bindTensor(const std::string &name,
                                          int32_t dataType,
                                          llvm::ArrayRef<onnx::Dim> dims,
                                          mlir::Location loc);

  llvm::StringMap<mlir::Value> values;
  llvm::StringMap<Sequence> sequences;
  llvm::DenseMap<mlir::Value, graph::HostTensor> constants;
  mlir::func::FuncOp func;
};

} // namespace mlc::frontend

#endif // MLC_LIB_FRONTEND_ONNX_ONNXGRAPHIMPORTER_H
