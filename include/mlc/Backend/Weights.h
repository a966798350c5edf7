//===- Weights.h - a model's weights, written without LLVM IR ---*- C++ -*-===//
//
// A model.so's weights never pass through LLVM IR: after lowering, the
// packed weight globals (mlc-pack-weight-globals) lose their initializers
// and become references to symbols that an object file written here from
// the MLIR resource blobs defines, byte for byte, without a copy. By default
// the object leaves the bytes to a section appended to the linked model.so,
// which the model maps as it loads; it can instead leave them to a weights
// file next to the model.so (--weights=external) that the runtime maps at
// open, or hold them itself (--weights=linked, archives) (mlc/model_abi.h).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_BACKEND_WEIGHTS_H
#define MLC_BACKEND_WEIGHTS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlc::backend {

/// The weights of a model laid out one after the other, each at its
/// global's alignment. The bytes belong to the MLIR context's attributes.
struct WeightsImage {
  struct Entry {
    std::string symbol;
    llvm::ArrayRef<char> bytes;
    uint64_t offset = 0;
  };
  std::vector<Entry> entries;
  /// Bytes from the first entry to the end of the last.
  uint64_t size = 0;
  /// The largest alignment of an entry.
  uint64_t alignment = 1;
  /// Blobs the entries' bytes come from, released by releaseBlobs.
  std::vector<mlir::Attribute> sources;

private:
  mutable std::optional<uint64_t> cachedFingerprint;

public:
  /// xxh3-64 over every entry's place and bytes; computed once (the
  /// entries must not change afterwards).
  uint64_t fingerprint() const;
  /// Frees the resource blobs the entries point into (their bytes are gone
  /// afterwards): for after the weights were written, when nothing reads
  /// the module's constants any more.
  void releaseBlobs();
};

/// Moves the initializers of the constant globals placed in `section` of
/// `module` (LLVM dialect) into `image`: each global becomes a hidden
/// external declaration named `<symbolPrefix>_<name>` (unique across the
/// function families of one model), its uses renamed.
void takeWeights(mlir::ModuleOp module, llvm::StringRef section,
                 llvm::StringRef symbolPrefix, WeightsImage &image);

/// Where the object writeWeightsObject writes puts the bytes.
enum class WeightsPlacement {
  /// In the object's read-only data.
  Embedded,
  /// In a weights file: the object holds a zero-filled region for the
  /// runtime to map the file onto, and the file's description.
  External,
  /// In a section appended to the linked model.so (appendWeightsSection):
  /// the object holds the region and the header the section must carry;
  /// the model's constructor maps the section onto the region
  /// (addWeightsInFileConstructor).
  InFile,
};

/// Writes a relocatable ELF object defining every entry's symbol (for
/// x86-64 and AArch64 Linux triples). External placement also defines
/// mlc/model_abi.h's MLC_SYM_WEIGHTS_REGION and MLC_SYM_EXTERNAL_WEIGHTS,
/// naming `weightsFile`.
llvm::LogicalResult
writeWeightsObject(const WeightsImage &image, llvm::StringRef triple,
                   WeightsPlacement placement, llvm::StringRef weightsFile,
                   llvm::raw_ostream &os, std::string &error);

/// Writes the weights file of external placement: the header page, then
/// the entries at their offsets.
void writeWeightsFile(const WeightsImage &image, llvm::raw_ostream &os);

/// Adds to `module` the constructor that maps in-file weights at load: a
/// call of the runtime's MLC_FN_MAP_WEIGHTS_IN_FILE with the object's
/// header and region (mlc/model_abi.h).
void addWeightsInFileConstructor(llvm::Module &module);

/// Appends the weights of in-file placement to the linked ELF file at
/// `path` as the non-allocated section MLC_WEIGHTS_SECTION, 64 KiB-aligned:
/// the weights file's contents (writeWeightsFile), then a new section name
/// table and section header table (the old ones stay, unreferenced).
llvm::LogicalResult appendWeightsSection(const WeightsImage &image,
                                         llvm::StringRef path,
                                         std::string &error);

} // namespace mlc::backend

#endif
