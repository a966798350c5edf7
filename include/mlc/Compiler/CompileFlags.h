//===- CompileFlags.h - mlc-compile's flags as data -------------*- C++ -*-===//
//
// The one table of compile flags ("-O3", "--cpu=generic", "--input-shape
// x=1x3x224x224", ...) that mlc-compile, the compiler C API (mlc/compiler.h)
// and Python's mlc.compile all parse, so a flag means the same everywhere.
// Unlike llvm::cl options, which are process globals, parsing here writes
// only the CompileOptions it is given: any number of threads may parse and
// compile at once.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_COMPILER_COMPILEFLAGS_H
#define MLC_COMPILER_COMPILEFLAGS_H

#include "mlc/Compiler/CompileOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlc {

/// How a flag takes its value.
enum class FlagKind {
  /// --name (true), --name=true|false|1|0.
  Bool,
  /// --name=V or --name V.
  Value,
  /// Like Value, repeatable: each occurrence adds to the list.
  List,
  /// -NV, -N=V or -N V (-O2, -j 4).
  Prefix,
};

struct CompileFlag {
  const char *name;
  FlagKind kind;
  /// Shown in the help as --name=<valueDesc>; empty for Bool flags.
  const char *valueDesc;
  const char *help;
  /// Stores `value` (a Bool flag's is "true" or "false") into `options`;
  /// returns a message for a malformed value, else "".
  std::string (*apply)(CompileOptions &options, llvm::StringRef value);
};

/// Every flag, in the order the help lists them.
llvm::ArrayRef<CompileFlag> compileFlags();

/// The options a compile starts from: CompileOptions' defaults, and
/// verifyEachPass when the environment has MLC_VERIFY_EACH=1 (as the test
/// suite does).
CompileOptions defaultCompileOptions();

/// Parses `args` (no program name) into `options`, in order, so a later
/// flag overrides an earlier one. A word without a leading dash is the
/// input; "--" makes every later word one. Arguments that are not compile
/// flags go to `unknown` when given (mlc-compile hands them to MLIR's and
/// LLVM's options), else they are an error. Returns the first problem as a
/// message naming the flag, "" if none.
std::string
parseCompileFlags(llvm::ArrayRef<llvm::StringRef> args, CompileOptions &options,
                  llvm::SmallVectorImpl<std::string> *unknown = nullptr);

/// The flags' help, one entry per flag, wrapped for a terminal.
std::string compileFlagsHelp();

} // namespace mlc

#endif
