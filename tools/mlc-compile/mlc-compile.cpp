//===- mlc-compile.cpp - the mlc compiler driver --------------------------===//
//
// mlc-compile INPUT -o OUTPUT: model.json, ONNX or graph-dialect .mlir in;
// graph-level MLIR, LLVM IR, assembly, an object file or a self-contained
// model.so out. A thin command line over mlc::compile (Compiler.h): flags
// in (CommandLine.cpp), diagnostics and the progress line out. On any error
// the exit code is 1 and no output file is left behind.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "Progress.h"

#include "mlc/Compiler/Compiler.h"
#include "mlc/Compiler/Pipelines.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace mlir;

namespace {

/// Prints diagnostics located in a model.json (NameLoc(json path) around
/// file:0:0) as "file: path: error: message"; anything else goes to the
/// source-manager handler registered before it.
LogicalResult printJSONDiagnostic(mlir::Diagnostic &diag) {
  auto name = dyn_cast<NameLoc>(diag.getLocation());
  auto file = name ? dyn_cast<FileLineColLoc>(name.getChildLoc()) : nullptr;
  bool wholeFile = false;
  if (!file) {
    file = dyn_cast<FileLineColLoc>(diag.getLocation());
    wholeFile = file && file.getLine() == 0;
    if (!wholeFile)
      return failure();
  }
  if (file.getLine() != 0)
    return failure();
  auto &os = llvm::errs();
  os << file.getFilename().getValue() << ": ";
  if (!wholeFile && !name.getName().getValue().empty())
    os << name.getName().getValue() << ": ";
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case mlir::DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case mlir::DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case mlir::DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diag.str() << "\n";
  for (mlir::Diagnostic &note : diag.getNotes())
    os << "  note: " << note.str() << "\n";
  return success();
}

/// Errors and warnings without a place in the model (options, files, the
/// linker, the cache) as "mlc-compile: error: message" (or "warning:").
LogicalResult printUnlocatedDiagnostic(mlir::Diagnostic &diag) {
  if (!isa<UnknownLoc>(diag.getLocation()))
    return failure();
  if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
    llvm::errs() << "mlc-compile: error: " << diag.str() << "\n";
  else if (diag.getSeverity() == mlir::DiagnosticSeverity::Warning)
    llvm::errs() << "mlc-compile: warning: " << diag.str() << "\n";
  else
    return failure();
  return success();
}

int fail(const Twine &message) {
  llvm::errs() << "mlc-compile: error: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  // Passes first: the --mlir-print-ir-* options list the registered passes.
  mlc::registerPassesAndPipelines();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  mlc::tool::CommandLine commandLine;
  std::string error = mlc::tool::parseCommandLine(argc, argv, commandLine);
  if (!error.empty())
    return fail(error);
  if (commandLine.listONNXOps) {
    mlc::frontend::printSupportedONNXOps(llvm::outs());
    return 0;
  }
  // Option errors before any work (and before a progress line).
  error = mlc::checkCompileOptions(commandLine.options);
  if (!error.empty())
    return fail(error);

  mlc::tool::Progress progress(commandLine.progress);
  // One timing report (--mlir-timing) for the whole compile: the pass
  // pipelines nest under it next to the import and the LLVM phases.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTimer = timing.getRootScope();

  MLIRContext context;
  // .mlir inputs: the handler opens the file named by a location.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler sourceHandler(sourceMgr, &context);
  ScopedDiagnosticHandler jsonHandler(&context, printJSONDiagnostic);
  ScopedDiagnosticHandler unlocatedHandler(&context, printUnlocatedDiagnostic);
  // Called first: erases the progress line, then lets the others print.
  ScopedDiagnosticHandler progressHandler(&context, [&](Diagnostic &) {
    progress.clearLine();
    return failure();
  });

  mlc::CompileHooks hooks;
  hooks.phase = [&](StringRef name) { progress.phase(name); };
  hooks.parts = [&](unsigned done, unsigned total) {
    progress.parts(done, total);
  };
  hooks.configurePassManager = [](PassManager &pm) {
    return applyPassManagerCLOptions(pm);
  };
  hooks.timing = &rootTimer;
  LogicalResult result = mlc::compile(context, commandLine.options, hooks);
  progress.finish();
  return failed(result) ? 1 : 0;
}
