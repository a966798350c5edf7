//===- ModelEmitter.h - LLVM dialect -> object file -> model.so -*- C++ -*-===//
#ifndef MLC_TARGET_MODELEMITTER_H
#define MLC_TARGET_MODELEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlc::target {

class ObjectCache;

/// The CPU code is generated for.
struct CPUTarget {
  std::string triple;
  std::string cpu;      ///< LLVM CPU name
  std::string features; ///< LLVM feature string "+avx2,+fma,..."
  /// Features the runtime checks before running the model (model_abi.h
  /// names, comma-separated), i.e. the subset of `features` it knows.
  std::string abiFeatures;
  /// Vector registers the kernels are blocked for: 512-bit x 32 with
  /// AVX-512F, 256-bit x 16 with AVX, else 128-bit x 16.
  unsigned vectorBits = 128;
  unsigned vectorRegisters = 16;
};

/// `cpu` is "native" (the host CPU and its features), "generic" (baseline
/// x86-64 / the triple's default) or an LLVM CPU name.
llvm::FailureOr<CPUTarget> resolveCPUTarget(llvm::StringRef cpu,
                                            std::string &error);

/// Translates a module in LLVM dialect to LLVM IR, set up for `target`.
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &ctx,
                                                const CPUTarget &target);

/// Links `src` into `dest` (the function families of a trainable model are
/// lowered separately; their internal symbols may share names).
llvm::LogicalResult linkModules(llvm::Module &dest,
                                std::unique_ptr<llvm::Module> src,
                                std::string &error);

/// The version of what optimize() and emitMachineCode() make of a module:
/// bump it whenever they change (the pipeline, the target machine's
/// options, the relocation model...). Objects in an ObjectCache
/// (mlc-compile --cache-dir) are keyed by it, so a bump retires them all.
constexpr unsigned kCodegenVersion = 4;

/// Runs LLVM's optimization pipeline at `optLevel` (0-3).
llvm::LogicalResult optimize(llvm::Module &module, const CPUTarget &target,
                             unsigned optLevel, std::string &error);

enum class FileKind { Object, Assembly };
llvm::LogicalResult emitMachineCode(llvm::Module &module,
                                    const CPUTarget &target, unsigned optLevel,
                                    FileKind kind, llvm::raw_pwrite_stream &os,
                                    std::string &error);

/// The section mlc-pack-weight-globals puts the weights in; for a model.so
/// backend::takeWeights moves them out of the module (Backend/Weights.h).
constexpr const char *kWeightsSection = ".rodata.mlc_weights";

/// At most this many parts per model (ParallelCodegen.cpp).
constexpr unsigned kMaxCodegenParts = 8;

/// How many parts `module` is compiled in: a function of the module alone
/// (its number of defined functions), so the objects never depend on -j.
unsigned partsFor(const llvm::Module &module);

/// Called as parts finish (done of total), from the thread that compiled
/// the part: it must be thread-safe.
using PartsProgress = std::function<void(unsigned done, unsigned total)>;

/// Splits `module` by function into partsFor(module) parts, optimizes each
/// and emits it as an object file, on `jobs` threads; returns the objects'
/// contents, the parts in order (ParallelCodegen.cpp). With a `cache`, each
/// part's object is looked up by a key of its bitcode and the target, and
/// stored when it had to be compiled.
llvm::FailureOr<llvm::SmallVector<llvm::SmallString<0>>>
compileInParts(std::unique_ptr<llvm::Module> module, const CPUTarget &target,
               unsigned optLevel, unsigned jobs, std::string &error,
               const PartsProgress &progress = nullptr,
               ObjectCache *cache = nullptr);

/// Threads for compileInParts when the user gives no -j: the CPUs this
/// process may use.
unsigned defaultJobs();

/// Links `objectFiles` with the runtime archive into a shared library with
/// the system C compiler driver (`cc`, or `compiler` if not empty).
llvm::LogicalResult linkSharedLibrary(llvm::ArrayRef<std::string> objectFiles,
                                      llvm::StringRef runtimeArchive,
                                      llvm::StringRef output,
                                      llvm::StringRef compiler,
                                      std::string &error);

} // namespace mlc::target

#endif
