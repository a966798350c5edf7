//===- Diagnostics.cpp - a compile's diagnostics as the user sees them ----===//

#include "mlc/Compiler/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace llvm;
using namespace mlir;

namespace mlc {
namespace {

StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  llvm_unreachable("unknown severity");
}

/// The first file position inside `loc` (through names, call sites and
/// fused locations), or null.
FileLineColLoc findFileLoc(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

} // namespace

CompileDiagnostic unlocatedError(StringRef tool, StringRef message) {
  CompileDiagnostic d;
  d.message = message.str();
  d.text = (tool + ": error: " + message + "\n").str();
  return d;
}

DiagnosticCollector::DiagnosticCollector(MLIRContext &context, StringRef tool,
                                         Sink sink)
    : tool(tool.str()), sink(std::move(sink)),
      sourceHandler(sourceMgr, &context, bufferStream),
      handler(&context, [this](Diagnostic &diag) { return handle(diag); }) {}

DiagnosticCollector::~DiagnosticCollector() = default;

std::string DiagnosticCollector::sourceText(Diagnostic &diag) {
  buffer.clear();
  sourceHandler.emitDiagnostic(diag.getLocation(), diag.str(),
                               diag.getSeverity());
  for (Diagnostic &note : diag.getNotes())
    sourceHandler.emitDiagnostic(note.getLocation(), note.str(),
                                 DiagnosticSeverity::Note);
  bufferStream.flush();
  return buffer;
}

LogicalResult DiagnosticCollector::handle(Diagnostic &diag) {
  CompileDiagnostic d;
  d.severity = diag.getSeverity();
  d.message = diag.str();
  Location loc = diag.getLocation();
  auto name = dyn_cast<NameLoc>(loc);
  FileLineColLoc file = findFileLoc(loc);
  if (file) {
    d.file = file.getFilename().str();
    d.line = file.getLine();
    d.column = file.getColumn();
  }
  raw_string_ostream os(d.text);
  if (isa<UnknownLoc>(loc)) {
    os << tool << ": " << severityName(d.severity) << ": " << d.message << "\n";
  } else if (file && file.getLine() == 0 &&
             (loc == file || (name && name.getChildLoc() == file))) {
    // A model file, at a JSON path or ONNX node when named.
    if (name)
      d.place = name.getName().str();
    os << d.file << ": ";
    if (!d.place.empty())
      os << d.place << ": ";
    os << severityName(d.severity) << ": " << d.message << "\n";
    for (Diagnostic &note : diag.getNotes())
      os << "  note: " << note.str() << "\n";
  } else {
    os << sourceText(diag);
  }
  os.flush();
  if (sink)
    sink(d);
  return success();
}

} // namespace mlc
