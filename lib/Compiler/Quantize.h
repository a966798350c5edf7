//===- Quantize.h - post-training int8 quantization of a model --*- C++ -*-===//
//
// mlc-compile --quantize=int8: picks the contractions to quantize, finds the
// scales of their inputs (calibration runs the float model compiled with the
// inputs as extra outputs, or a scales file gives them) and inserts
// quantize/dequantize pairs, after which the graph is a QDQ graph like the
// ones exporters write (docs/quantization.md).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_COMPILER_QUANTIZE_H
#define MLC_LIB_COMPILER_QUANTIZE_H

#include "mlc/Compiler/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

namespace mlc::compiler {

/// The range [lo, hi] of each observed activation over the calibration
/// samples.
struct ActivationRange {
  double lo = 0, hi = 0;
};

/// Compiles `calibModule` (the float model whose last `numObserved` results
/// are the activations to observe) into a temporary model.so, runs it on
/// every sample of options.calibration and returns the range of each
/// observed activation: min and max, or with the percentile method the
/// 0.01th and 99.99th percentiles. Calibrate.cpp.
/// `numSamples` gets the number of samples run.
mlir::FailureOr<std::vector<ActivationRange>>
calibrate(mlir::ModuleOp calibModule, unsigned numObserved,
          const CompileOptions &options, unsigned &numSamples);

/// Quantizes `module` (its constants folded, batch norms folded) in place;
/// the chosen scales go into `report`. Errors are emitted on the module's
/// context and name the file or site at fault.
mlir::LogicalResult quantizeModel(mlir::ModuleOp module,
                                  const CompileOptions &options,
                                  llvm::json::Object &report);

} // namespace mlc::compiler

#endif
