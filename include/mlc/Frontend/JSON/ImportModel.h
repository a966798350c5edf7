//===- ImportModel.h - model.json -> graph dialect --------------*- C++ -*-===//
#ifndef MLC_FRONTEND_JSON_IMPORTMODEL_H
#define MLC_FRONTEND_JSON_IMPORTMODEL_H

#include "mlc/Frontend/JSON/ModelSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlc::frontend {

/// Location for a JSON path in a model file: NameLoc(path, file:0:0).
/// Diagnostics at such locations print as "<file>: <path>: error: ...".
mlir::Location jsonLocation(mlir::MLIRContext *ctx, llvm::StringRef file,
                            llvm::StringRef path);

/// Builds a module with one function @main (inputs and outputs named by
/// `mlc.name` attributes) from a parsed model. Reports problems as
/// diagnostics at JSON locations and returns null. The weights named in
/// `weightArguments` become the function's leading arguments, in that order,
/// instead of constants (the trainable variables of a training module).
mlir::OwningOpRef<mlir::ModuleOp>
importModel(mlir::MLIRContext *ctx, const ModelSpec &spec,
            llvm::ArrayRef<std::string> weightArguments = {});

/// Builds a trainable model from a model.json with a `training` section
/// (docs/training.md): a module with three functions, @main (inference on
/// the variables), @train_step (variables and a batch in; loss and updated
/// variables out) and @init (the variables' initial values), whose
/// arguments and results carry `mlc.name` and `mlc.kind` (model_abi.h).
mlir::OwningOpRef<mlir::ModuleOp> importTrainingModel(mlir::MLIRContext *ctx,
                                                      const ModelSpec &spec);

/// parseModelJSON + importModel; parse errors become diagnostics too.
mlir::OwningOpRef<mlir::ModuleOp> importModelJSON(mlir::MLIRContext *ctx,
                                                  llvm::StringRef path);

} // namespace mlc::frontend

#endif
