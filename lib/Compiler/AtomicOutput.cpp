//===- AtomicOutput.cpp - the compiler's all-or-nothing outputs -----------===//

#include "AtomicOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlc::compiler;

AtomicOutput::~AtomicOutput() {
  if (!tmp.empty())
    sys::fs::remove(tmp);
}

std::string AtomicOutput::create(std::string &error) {
  int fd;
  SmallString<256> path;
  if (isStdout(dest)) {
    if (std::error_code ec =
            sys::fs::createTemporaryFile("mlc-compile", "out", fd, path)) {
      error =
          "cannot create a temporary file for standard output: " + ec.message();
      return "";
    }
  } else {
    // Next to the destination, so that the rename stays on one file system.
    SmallString<256> model(dest);
    model += ".tmp-%%%%%%";
    if (std::error_code ec = sys::fs::createUniqueFile(model, fd, path)) {
      error = "cannot create '" + model.str().str() + "': " + ec.message();
      return "";
    }
  }
  sys::fs::closeFile(fd);
  tmp = path.str().str();
  return tmp;
}

LogicalResult AtomicOutput::commit(std::string &error) {
  if (isStdout(dest)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(tmp);
    if (!text) {
      error = "cannot read '" + tmp + "': " + text.getError().message();
      return failure();
    }
    outs() << (*text)->getBuffer();
    outs().flush();
    if (outs().has_error()) {
      outs().clear_error();
      error = "error writing to standard output";
      return failure();
    }
    return success(); // the destructor removes the temporary
  }
  if (std::error_code ec = sys::fs::rename(tmp, dest)) {
    error = "cannot write '" + dest + "': " + ec.message();
    return failure();
  }
  tmp.clear();
  return success();
}
