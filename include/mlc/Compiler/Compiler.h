//===- Compiler.h - mlc as a library: one compile entry ---------*- C++ -*-===//
//
// mlc::compile imports a model, runs the graph and lowering pipelines and
// writes what CompileOptions asks for (MLIR, a picture, LLVM IR, assembly,
// an object or a model.so), all or nothing: on failure no output or report
// is left behind. mlc-compile is a thin command line over it.
//
// Errors are MLIR diagnostics on the context: located in the model where
// they have a place (a JSON path, an ONNX node, an .mlir line), at
// UnknownLoc otherwise (options, files, the linker); the caller's handlers
// print them.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_COMPILER_COMPILER_H
#define MLC_COMPILER_COMPILER_H

#include "mlc/Compiler/CompileOptions.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <functional>

namespace mlir {
class MLIRContext;
class PassManager;
class TimingScope;
} // namespace mlir

namespace mlc {

/// How a caller follows a compile. Every member is optional.
struct CompileHooks {
  /// A phase begins ("import", "graph pipeline", "lower to LLVM dialect",
  /// ...): for a progress line.
  std::function<void(llvm::StringRef phase)> phase;
  /// Back-end parts done of total; called from the code generation
  /// threads, so it must be thread-safe.
  std::function<void(unsigned done, unsigned total)> parts;
  /// Applied to every pass manager before it runs (mlc-compile: MLIR's
  /// --mlir-print-ir-*, --mlir-pass-statistics, ... options).
  std::function<mlir::LogicalResult(mlir::PassManager &)> configurePassManager;
  /// The phases' timers nest under this scope (--mlir-timing).
  mlir::TimingScope *timing = nullptr;
};

/// Checks the options alone (levels, CUDA chips, outputs that cannot go to
/// standard output, combinations not supported); the first problem is
/// returned as a message, empty if none.
std::string checkCompileOptions(const CompileOptions &options);

/// Compiles `options.input` into `options.output`. The context is set up
/// here (mlc's dialects are added to it); diagnostics go to its handlers.
/// The compile frees the weight blobs its module stops using (and, after
/// writing a model.so, all of its weights): the context must not hold other
/// IR with dense_resource weights. Use a fresh context per compile.
mlir::LogicalResult compile(mlir::MLIRContext &context,
                            const CompileOptions &options,
                            const CompileHooks &hooks = {});

} // namespace mlc

#endif
