//===- CommandLine.cpp - mlc-compile's flags -> mlc::CompileOptions -------===//
//
// The compile flags are the compiler library's table (CompileFlags.h),
// shared with the C API and Python. What the table does not know goes to
// llvm::cl: this tool's own --progress and --list-onnx-ops, MLIR's --mlir-*
// options and LLVM's (process-wide, hence not in the library).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "mlc/Compiler/CompileFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace {

cl::OptionCategory toolCategory("mlc-compile tool options");

/// --help lists the compile flags (in the overview), this tool's and
/// MLIR's options; the LLVM backends' many options stay usable and are
/// listed by --help-hidden.
void hideLLVMOptions() {
  for (auto &[name, option] : cl::getRegisteredOptions()) {
    if (llvm::is_contained(option->Categories, &toolCategory) ||
        name.starts_with("mlir-") || name.starts_with("help") ||
        name == "version" || option->getOptionHiddenFlag() != cl::NotHidden)
      continue;
    option->setHiddenFlag(cl::Hidden);
  }
}

cl::opt<bool> listONNXOps(
    "list-onnx-ops", cl::cat(toolCategory),
    cl::desc("Print the supported ONNX operators (markdown) and exit"));
cl::opt<mlc::tool::Progress::Mode> progressMode(
    "progress", cl::cat(toolCategory),
    cl::desc("The progress line on stderr: the phase, the back end's parts "
             "done of total, the seconds so far"),
    cl::values(clEnumValN(mlc::tool::Progress::Mode::Auto, "auto",
                          "on a terminal, redrawn in place once a compile "
                          "has run for 2 s (default)"),
               clEnumValN(mlc::tool::Progress::Mode::Always, "always",
                          "each step as a line of its own, terminal or not"),
               clEnumValN(mlc::tool::Progress::Mode::Never, "never",
                          "nothing")),
    cl::init(mlc::tool::Progress::Mode::Auto));

/// The LLVM (not mlc, not MLIR) options on the command line, comma-separated.
std::string llvmOptionsGiven() {
  std::string given;
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getNumOccurrences() &&
        !llvm::is_contained(option->Categories, &toolCategory) &&
        !name.starts_with("mlir-"))
      given += (given.empty() ? "--" : ", --") + name.str();
  return given;
}

/// ../lib/libmlc_runtime.a next to this tool's bin/.
std::string defaultRuntimeLib(const char *argv0) {
  std::string exe = sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultRuntimeLib));
  SmallString<256> path(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(path, "lib", "libmlc_runtime.a");
  return path.str().str();
}

} // namespace

namespace mlc::tool {

std::string parseCommandLine(int argc, char **argv, CommandLine &result) {
  CompileOptions &o = result.options;
  o = defaultCompileOptions();
  SmallVector<StringRef> args(argv + 1, argv + argc);
  SmallVector<std::string> unknown;
  std::string error = parseCompileFlags(args, o, &unknown);
  if (!error.empty())
    return error;

  // The rest (and --help, which prints the overview) through llvm::cl.
  hideLLVMOptions();
  SmallVector<const char *> rest = {argv[0]};
  for (const std::string &arg : unknown)
    rest.push_back(arg.c_str());
  std::string overview =
      "mlc-compile: compile a model to a shared library (or a static archive "
      "and C header, MLIR, LLVM IR, "
      "assembly, object)\n\nmlc-compile options:\n" +
      compileFlagsHelp();
  cl::ParseCommandLineOptions(rest.size(), rest.data(), overview);
  result.listONNXOps = listONNXOps;
  result.progress = progressMode;
  if (listONNXOps)
    return "";
  if (o.input.empty())
    return "no input file (run 'mlc-compile --help' for usage)";
  if (!o.cacheDir.empty())
    if (std::string given = llvmOptionsGiven(); !given.empty()) {
      // They may change the code, and the cache's keys do not know them.
      errs() << "mlc-compile: warning: --cache-dir is ignored with LLVM's "
                "own options ("
             << given << ")\n";
      o.cacheDir.clear();
    }
  if (o.runtimeLib.empty())
    o.runtimeLib = defaultRuntimeLib(argv[0]);
  return "";
}

} // namespace mlc::tool
