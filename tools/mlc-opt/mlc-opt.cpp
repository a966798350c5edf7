//===- mlc-opt.cpp - mlc's mlir-opt -----------------------------------------===//
//
// Runs passes and pipelines on .mlir files: all of mlc's dialects and passes
// plus the upstream ones the pipelines use.
//
//===----------------------------------------------------------------------===//

#include "mlc/Compiler/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlc::registerPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlc::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mlc optimizer driver\n", registry));
}
