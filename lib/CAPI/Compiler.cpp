//===- Compiler.cpp - the compiler's C API (mlc/compiler.h) ---------------===//
//
// A thin layer over mlc::compile: the flags parsed by the shared table
// (CompileFlags.h), diagnostics collected as mlc-compile prints them
// (Diagnostics.h), one fresh MLIRContext per compile. The only process-wide
// state, the pass registry that textual pipelines are parsed against, is
// filled once, before the first object exists.
//
//===----------------------------------------------------------------------===//

#include "mlc/compiler.h"

#include "mlc/Compiler/CompileFlags.h"
#include "mlc/Compiler/Compiler.h"
#include "mlc/Compiler/Diagnostics.h"
#include "mlc/Compiler/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>
#include <mutex>
#include <new>

using namespace llvm;

#ifndef MLC_VERSION_STRING
#define MLC_VERSION_STRING "unknown"
#endif

struct mlc_compiler {
  mlc::CompileOptions options;
  std::vector<mlc::CompileDiagnostic> diagnostics;
  std::string text;
  std::string memory; // mlc_compiler_compile_to_memory's bytes
  mlc_compiler_progress_fn progress = nullptr;
  void *progressUser = nullptr;
};

namespace {

const char *const kTool = "mlc";

/// libmlc_runtime.a next to this library (the build tree's lib/ and an
/// installed prefix's lib/ hold both).
std::string runtimeArchiveNextToLibrary() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&mlc_compiler_create), &info) ||
      !info.dli_fname)
    return "";
  SmallString<256> path(sys::path::parent_path(info.dli_fname));
  sys::path::append(path, "libmlc_runtime.a");
  return std::string(path);
}

mlc::CompileOptions defaults() {
  mlc::CompileOptions options = mlc::defaultCompileOptions();
  static const std::string runtime = runtimeArchiveNextToLibrary();
  options.runtimeLib = runtime;
  return options;
}

/// Starts a call: the previous call's diagnostics go.
void clearDiagnostics(mlc_compiler *c) {
  c->diagnostics.clear();
  c->text.clear();
}

void addDiagnostic(mlc_compiler *c, const mlc::CompileDiagnostic &d) {
  c->diagnostics.push_back(d);
  c->text += d.text;
}

mlc_compiler_status failWith(mlc_compiler *c, mlc_compiler_status status,
                             StringRef message) {
  addDiagnostic(c, mlc::unlocatedError(kTool, message));
  return status;
}

/// The one compile both entry points share; `options` is the object's with
/// the call's input and output.
mlc_compiler_status compileWith(mlc_compiler *c,
                                const mlc::CompileOptions &options) {
  if (std::string error = mlc::checkCompileOptions(options); !error.empty())
    return failWith(c, MLC_COMPILER_ERR_FLAGS, error);
  static std::once_flag registered;
  std::call_once(registered, mlc::registerPassesAndPipelines);

  mlir::MLIRContext context;
  mlc::DiagnosticCollector collector(
      context, kTool,
      [c](const mlc::CompileDiagnostic &d) { addDiagnostic(c, d); });
  mlc::CompileHooks hooks;
  // Parts finish on the code generation threads: one report at a time, in
  // the phase that runs them.
  std::mutex progressMutex;
  std::string phase;
  if (c->progress) {
    hooks.phase = [&](StringRef name) {
      std::lock_guard<std::mutex> lock(progressMutex);
      phase = name.str();
      c->progress(c->progressUser, phase.c_str(), 0, 0);
    };
    hooks.parts = [&](unsigned done, unsigned total) {
      std::lock_guard<std::mutex> lock(progressMutex);
      c->progress(c->progressUser, phase.c_str(), done, total);
    };
  }
  if (failed(mlc::compile(context, options, hooks)))
    return MLC_COMPILER_ERR_COMPILE;
  return MLC_COMPILER_OK;
}

} // namespace

extern "C" {

uint32_t mlc_compiler_api_version(void) { return MLC_COMPILER_API_VERSION; }

const char *mlc_compiler_version(void) { return MLC_VERSION_STRING; }

mlc_compiler *mlc_compiler_create(void) {
  auto *c = new (std::nothrow) mlc_compiler;
  if (c)
    c->options = defaults();
  return c;
}

void mlc_compiler_destroy(mlc_compiler *compiler) { delete compiler; }

mlc_compiler_status mlc_compiler_set_flags(mlc_compiler *c, int argc,
                                           const char *const *argv) {
  if (!c)
    return MLC_COMPILER_ERR_INVALID_ARGUMENT;
  clearDiagnostics(c);
  if (argc < 0 || (argc > 0 && !argv))
    return failWith(c, MLC_COMPILER_ERR_INVALID_ARGUMENT,
                    "mlc_compiler_set_flags: argv is NULL or argc negative");
  SmallVector<StringRef> args;
  for (int i = 0; i < argc; ++i) {
    if (!argv[i])
      return failWith(c, MLC_COMPILER_ERR_INVALID_ARGUMENT,
                      "mlc_compiler_set_flags: argv[" + std::to_string(i) +
                          "] is NULL");
    args.push_back(argv[i]);
  }
  // All or nothing: a bad flag leaves the options as they were.
  mlc::CompileOptions options = c->options;
  if (std::string error = mlc::parseCompileFlags(args, options); !error.empty())
    return failWith(c, MLC_COMPILER_ERR_FLAGS, error);
  c->options = std::move(options);
  return MLC_COMPILER_OK;
}

mlc_compiler_status mlc_compiler_reset_flags(mlc_compiler *c) {
  if (!c)
    return MLC_COMPILER_ERR_INVALID_ARGUMENT;
  clearDiagnostics(c);
  c->options = defaults();
  return MLC_COMPILER_OK;
}

mlc_compiler_status mlc_compiler_compile(mlc_compiler *c, const char *input,
                                         const char *output) {
  if (!c)
    return MLC_COMPILER_ERR_INVALID_ARGUMENT;
  clearDiagnostics(c);
  mlc::CompileOptions options = c->options;
  if (input)
    options.input = input;
  if (output)
    options.output = output;
  return compileWith(c, options);
}

mlc_compiler_status mlc_compiler_compile_to_memory(mlc_compiler *c,
                                                   const char *input,
                                                   const void **data,
                                                   size_t *size) {
  if (!c)
    return MLC_COMPILER_ERR_INVALID_ARGUMENT;
  clearDiagnostics(c);
  c->memory.clear();
  if (!data || !size)
    return failWith(c, MLC_COMPILER_ERR_INVALID_ARGUMENT,
                    "mlc_compiler_compile_to_memory: data or size is NULL");
  *data = nullptr;
  *size = 0;
  mlc::CompileOptions options = c->options;
  if (input)
    options.input = input;
  if (options.weights == mlc::WeightsStorage::External ||
      options.emit == mlc::OutputKind::Archive)
    return failWith(c, MLC_COMPILER_ERR_FLAGS,
                    std::string(options.weights == mlc::WeightsStorage::External
                                    ? "--weights=external"
                                    : "--emit=archive") +
                        " writes two files: compile to a file instead of to "
                        "memory");
  // Through a private directory: the back end and the linker write files.
  SmallString<128> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("mlc-compile", dir))
    return failWith(c, MLC_COMPILER_ERR_COMPILE,
                    "cannot create a temporary directory: " + ec.message());
  SmallString<128> path(dir);
  sys::path::append(path, "model.so");
  auto cleanup = llvm::make_scope_exit([&] {
    sys::fs::remove(path);
    sys::fs::remove(dir);
  });
  options.output = std::string(path);
  if (mlc_compiler_status status = compileWith(c, options))
    return status;
  ErrorOr<std::unique_ptr<MemoryBuffer>> bytes =
      MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!bytes)
    return failWith(c, MLC_COMPILER_ERR_COMPILE,
                    "cannot read the compiled model back: " +
                        bytes.getError().message());
  c->memory = (*bytes)->getBuffer().str();
  *data = c->memory.data();
  *size = c->memory.size();
  return MLC_COMPILER_OK;
}

size_t mlc_compiler_num_diagnostics(const mlc_compiler *c) {
  return c ? c->diagnostics.size() : 0;
}

mlc_compiler_status mlc_compiler_get_diagnostic(const mlc_compiler *c,
                                                size_t index,
                                                mlc_diagnostic *out) {
  if (!c || !out || index >= c->diagnostics.size())
    return MLC_COMPILER_ERR_INVALID_ARGUMENT;
  const mlc::CompileDiagnostic &d = c->diagnostics[index];
  switch (d.severity) {
  case mlir::DiagnosticSeverity::Error:
    out->severity = MLC_DIAGNOSTIC_ERROR;
    break;
  case mlir::DiagnosticSeverity::Warning:
    out->severity = MLC_DIAGNOSTIC_WARNING;
    break;
  case mlir::DiagnosticSeverity::Note:
    out->severity = MLC_DIAGNOSTIC_NOTE;
    break;
  case mlir::DiagnosticSeverity::Remark:
    out->severity = MLC_DIAGNOSTIC_REMARK;
    break;
  }
  out->file = d.file.c_str();
  out->place = d.place.c_str();
  out->line = d.line;
  out->column = d.column;
  out->message = d.message.c_str();
  out->text = d.text.c_str();
  return MLC_COMPILER_OK;
}

const char *mlc_compiler_diagnostics_text(const mlc_compiler *c) {
  return c ? c->text.c_str() : "";
}

void mlc_compiler_set_progress(mlc_compiler *c,
                               mlc_compiler_progress_fn callback, void *user) {
  if (!c)
    return;
  c->progress = callback;
  c->progressUser = user;
}

const char *mlc_compiler_flags_help(void) {
  static const std::string help = mlc::compileFlagsHelp();
  return help.c_str();
}

} // extern "C"
