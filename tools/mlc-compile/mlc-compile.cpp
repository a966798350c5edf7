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
#include "mlc/Compiler/Diagnostics.h"
#include "mlc/Compiler/Pipelines.h"
#include "mlc/Frontend/ONNX/ImportONNX.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#ifdef __GLIBC__
#include <malloc.h>
#include <unistd.h>
#endif

using namespace llvm;
using namespace mlir;

namespace {

int fail(const Twine &message) {
  llvm::errs() << mlc::unlocatedError("mlc-compile", message.str()).text;
  return 1;
}

/// A compile frees and allocates its weights' size several times over (in
/// each layout they pass through) and the IR's. glibc gives large freed
/// blocks back to the kernel, and on some VMs memory touched for the first
/// time costs more than the work done in it (docs/compiler.md, "Weights
/// rewritten where they are"): the process keeps what it frees for reuse.
/// The driver's choice only; the library leaves its host's malloc alone.
void keepFreedMemory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

/// Whether transparent huge pages are given to memory that asks for them
/// (the kernel's "madvise" mode; with "always" every process has them, with
/// "never" none).
bool hugePagesOnRequest() {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text((std::istreambuf_iterator<char>(mode)), {});
  return text.find("[madvise]") != std::string::npos;
}

/// The memory a compile touches first costs one page fault per 4 KiB, on
/// some VMs 12 us each: half of VGG-11-BN's compile. glibc asks for huge
/// pages for its heap with the glibc.malloc.hugetlb=1 tunable: a fault per
/// 2 MiB (VGG-11-BN 182,000 faults -> 10,000, 5.0 -> 3.9 s; Inception-v3
/// 52,000 -> 9,000). A tunable is read only when a process starts, so the
/// driver starts itself again with it added, once (after that it is set).
/// A GLIBC_TUNABLES that already sets it is the user's choice, kept. If
/// the restart fails, the compile goes on as it is.
void askForHugePages(char **argv) {
#ifdef __GLIBC__
  const char *tunables = getenv("GLIBC_TUNABLES");
  std::string value = tunables ? tunables : "";
  if (value.find("glibc.malloc.hugetlb") != std::string::npos ||
      !hugePagesOnRequest())
    return;
  std::string with = value.empty() ? "" : value + ":";
  with += "glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", with.c_str(), 1) != 0)
    return;
  execv("/proc/self/exe", argv);
  // Still here: the restart failed; put the environment back.
  if (tunables)
    setenv("GLIBC_TUNABLES", value.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

} // namespace

int main(int argc, char **argv) {
  askForHugePages(argv);
  InitLLVM y(argc, argv);
  keepFreedMemory();
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
  // The same messages as the C API's and Python's, below the progress line.
  mlc::DiagnosticCollector diagnostics(context, "mlc-compile",
                                       [&](const mlc::CompileDiagnostic &d) {
                                         progress.clearLine();
                                         llvm::errs() << d.text;
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
