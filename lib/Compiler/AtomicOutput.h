//===- AtomicOutput.h - the compiler's all-or-nothing outputs ---*- C++ -*-===//
//
// Every file mlc::compile writes goes to a temporary first and only becomes
// the named file when the whole compile succeeded, so a failure never
// leaves a partial model.so or report behind. "-" names standard output:
// the temporary then lives in the system's temporary directory and is
// copied to stdout at the end (text formats only; the caller checks).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_COMPILER_ATOMICOUTPUT_H
#define MLC_LIB_COMPILER_ATOMICOUTPUT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <string>

namespace mlc::compiler {

class AtomicOutput {
public:
  explicit AtomicOutput(llvm::StringRef dest) : dest(dest.str()) {}
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput &) = delete;
  AtomicOutput &operator=(const AtomicOutput &) = delete;

  static bool isStdout(llvm::StringRef path) { return path == "-"; }
  /// Creates the temporary file; returns its path, or "" and `error`.
  std::string create(std::string &error);
  /// Renames the temporary into place (or copies it to standard output).
  llvm::LogicalResult commit(std::string &error);

private:
  std::string dest, tmp;
};

} // namespace mlc::compiler

#endif
