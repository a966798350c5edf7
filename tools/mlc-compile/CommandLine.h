//===- CommandLine.h - mlc-compile's flags -> mlc::CompileOptions -*- C++
//-*-===//
#ifndef MLC_TOOLS_MLC_COMPILE_COMMANDLINE_H
#define MLC_TOOLS_MLC_COMPILE_COMMANDLINE_H

#include "Progress.h"

#include "mlc/Compiler/CompileOptions.h"

#include <string>

namespace mlc::tool {

struct CommandLine {
  CompileOptions options;
  Progress::Mode progress = Progress::Mode::Auto;
  /// --list-onnx-ops: print the table and exit; nothing else is read.
  bool listONNXOps = false;
};

/// Parses argv (after the passes and MLIR's own options are registered, so
/// --help lists them); returns a message for a malformed flag, else "".
std::string parseCommandLine(int argc, char **argv, CommandLine &result);

} // namespace mlc::tool

#endif
