//===- ModelArchive.h - a model as a static archive and a header *- C++ -*-===//
//
// mlc-compile --emit=archive (docs/embedding.md): the model's objects in an
// ar archive, every symbol they define prefixed with the model's name so
// that several models link into one program, plus typed C entry points and
// a header generated from the model's signature. The runtime is not in the
// archive: the program links libmlc_runtime.a once, beside all its models.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TARGET_MODELARCHIVE_H
#define MLC_TARGET_MODELARCHIVE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlc::target {

/// The inputs and outputs of a model's entry (the signature text of
/// mlc/model_abi.h) and its workspace size.
struct ModelSignature {
  struct Tensor {
    bool input = true;
    std::string dtype; ///< "f32", "i64", ... as in the signature text
    std::vector<int64_t> shape;
    std::string name;
  };
  std::vector<Tensor> tensors; ///< inputs first, then outputs
  uint64_t workspaceBytes = 0;
};

/// Parses an inference model's signature text (in/out lines only).
llvm::LogicalResult parseModelSignature(llvm::StringRef text,
                                        uint64_t workspaceBytes,
                                        ModelSignature &signature,
                                        std::string &error);

/// The name that symbol `symbol` of model `name` has in its archive.
std::string archiveSymbol(llvm::StringRef name, llvm::StringRef symbol);

/// Renames every global value `module` defines (functions, variables,
/// aliases; internal ones too, since splitting the module in parts makes
/// them hidden globals) and the declarations named in `definedElsewhere`
/// (the weights, defined by their own object) to archiveSymbol(name, ...).
/// References to anything else (the runtime, libc, libm) stay as they are.
void prefixModelSymbols(llvm::Module &module, llvm::StringRef name,
                        llvm::ArrayRef<std::string> definedElsewhere);

/// Adds the archive's C entry points to a module whose symbols
/// prefixModelSymbols renamed: <name>_run, <name>_run_with_workspace and
/// <name>_set_num_threads (writeModelHeader declares them). `cpuFeatures`
/// are those the code needs, checked before the first run.
void addArchiveEntryPoints(llvm::Module &module, llvm::StringRef name,
                           const ModelSignature &signature,
                           llvm::StringRef cpuFeatures);

/// Writes the C header of archive file `archive`: its constants and entry
/// points. `source` (the model file) is named in a comment.
void writeModelHeader(const ModelSignature &signature, llvm::StringRef name,
                      llvm::StringRef source, llvm::StringRef archive,
                      llvm::raw_ostream &os);

/// One object file of an archive.
struct ArchiveMember {
  std::string name; ///< the member's name in the archive
  std::string path; ///< the file holding its contents
};

/// Writes a GNU ar archive of `members` with its symbol table, the same
/// bytes for the same members (no time stamps, owners or modes).
llvm::LogicalResult writeObjectArchive(llvm::ArrayRef<ArchiveMember> members,
                                       llvm::raw_ostream &os,
                                       std::string &error);

} // namespace mlc::target

#endif
