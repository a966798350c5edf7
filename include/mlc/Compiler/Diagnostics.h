//===- Diagnostics.h - diagnostics as the user sees them --------*- C++ -*-===//
//
// mlc::compile reports errors as MLIR diagnostics on its context (see
// Compiler.h). DiagnosticCollector turns each into a CompileDiagnostic:
// where it is (the file, the model.json path or ONNX node, an .mlir line)
// and the text mlc-compile prints for it, so the tool, the C API and
// Python show the same messages.
//
// The text, by location:
//  - a model.json path or an ONNX node (NameLoc around file:0:0):
//      "file: place: error: message" and "  note: ..." lines;
//  - a whole model file (file:0:0): "file: error: message";
//  - no place (options, files, the linker): "<tool>: error: message";
//  - anything else (.mlir lines): as MLIR's SourceMgrDiagnosticHandler
//    prints it, with the source line.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_COMPILER_DIAGNOSTICS_H
#define MLC_COMPILER_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace mlc {

struct CompileDiagnostic {
  mlir::DiagnosticSeverity severity = mlir::DiagnosticSeverity::Error;
  /// The model file, or "" when the diagnostic has no place in a file.
  std::string file;
  /// The model.json path ("nodes[3].inputs[1]") or the ONNX node; "" if
  /// none.
  std::string place;
  /// A text input's line and column (1-based), 0 when not known.
  unsigned line = 0, column = 0;
  std::string message;
  /// Formatted as the tool prints it, notes included, ending in a newline.
  std::string text;
};

/// An error without a place, as checkCompileOptions and the flag parser
/// report them.
CompileDiagnostic unlocatedError(llvm::StringRef tool, llvm::StringRef message);

/// While alive, takes every diagnostic of `context` (no other handler sees
/// them) and hands it to `sink` as a CompileDiagnostic; `tool` starts the
/// text of those without a place ("mlc-compile: error: ...").
class DiagnosticCollector {
public:
  using Sink = std::function<void(const CompileDiagnostic &)>;
  DiagnosticCollector(mlir::MLIRContext &context, llvm::StringRef tool,
                      Sink sink);
  ~DiagnosticCollector();

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);
  std::string sourceText(mlir::Diagnostic &diag);

  std::string tool;
  Sink sink;
  // Formats .mlir-located diagnostics into `buffer` (it opens the file a
  // location names to show the line).
  llvm::SourceMgr sourceMgr;
  std::string buffer;
  llvm::raw_string_ostream bufferStream{buffer};
  mlir::SourceMgrDiagnosticHandler sourceHandler;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace mlc

#endif
