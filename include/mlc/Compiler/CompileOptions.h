//===- CompileOptions.h - what one compile of a model asks for --*- C++ -*-===//
//
// The options of mlc::compile (Compiler.h), one field per mlc-compile flag.
// Plain data with the tool's defaults, so any front end (the command line,
// later the Python binding and a C API) fills them in the same way.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_COMPILER_COMPILEOPTIONS_H
#define MLC_COMPILER_COMPILEOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlc {

/// Where the compiled model runs.
enum class Target {
  /// This machine's CPU (or the one `CompileOptions::cpu` names).
  CPU,
  /// NVIDIA GPUs: kernels in a fatbin, launched through the runtime's CUDA
  /// shim (docs/cuda.md).
  CUDA,
  /// The CUDA kernels run as loops on the CPU: tests GPU code generation
  /// without a GPU.
  CUDAEmulated,
};

/// "cpu", "cuda", "cuda-emulated".
llvm::StringRef stringifyTarget(Target target);
std::optional<Target> parseTarget(llvm::StringRef name);

/// What a compile writes.
enum class OutputKind {
  MLIR,          ///< the optimized graph (re-compilable)
  Dot,           ///< Graphviz picture of the graph and its fusion groups
  LLVM,          ///< LLVM IR
  Asm,           ///< assembly
  Object,        ///< one object file
  SharedLibrary, ///< model.so with the runtime linked in
  Archive,       ///< model.a and model.h for static linking (docs/embedding.md)
};

/// --emit's names: "mlir", "dot", "llvm", "asm", "obj", "so", "archive".
llvm::StringRef stringifyOutputKind(OutputKind kind);
std::optional<OutputKind> parseOutputKind(llvm::StringRef name);
/// Every name, for messages: "mlir, dot, llvm, asm, obj, so or archive".
std::string outputKindNames();

/// The kind a file name's suffix implies: .mlir, .dot/.gv, .ll, .s, .o, .a;
/// anything else is a shared library.
OutputKind outputKindFromSuffix(llvm::StringRef path);
/// Text kinds can go to standard output ("-").
bool isTextOutput(OutputKind kind);

/// Where a model.so's weights go (--weights).
enum class WeightsStorage {
  /// In the model.so's file, a section appended after the link (the linker
  /// never copies them), mapped by the model.so as it loads.
  Embedded,
  /// In the model.so's read-only data, through the linker: slower to link
  /// for large models, but kept by every tool that rewrites the file.
  Linked,
  /// In a file of their own next to the model.so, externalWeightsPath(),
  /// that the runtime maps at open.
  External,
};
llvm::StringRef stringifyWeightsStorage(WeightsStorage storage);
std::optional<WeightsStorage> parseWeightsStorage(llvm::StringRef name);

struct CompileOptions;
/// Where --weights=external puts the weights: the output with its suffix
/// replaced by .weights (model.so -> model.weights).
std::string externalWeightsPath(const CompileOptions &options);
/// An archive's symbol prefix: `archiveName`, else the output's stem made a
/// C identifier (non-identifier characters become '_'; "model_" goes before
/// a leading digit; "model" for an empty stem).
std::string archiveSymbolName(const CompileOptions &options);
/// The header written with an archive: the output with its suffix replaced
/// by .h (model.a -> model.h).
std::string archiveHeaderPath(const CompileOptions &options);
/// Letters, digits and '_', not starting with a digit.
bool isCIdentifier(llvm::StringRef name);

struct CompileOptions {
  /// model.json, model.onnx or graph-dialect .mlir (by suffix).
  std::string input;
  /// The file written, all or nothing; "-" is standard output (text kinds).
  std::string output;
  /// Default: from the output's suffix.
  std::optional<OutputKind> emit;
  /// A JSON report (graph figures, kernels, seconds per phase, peak
  /// memory) written with the output; "-" is standard output.
  std::string report;

  /// ONNX: static shapes for inputs with dynamic dimensions, and inputs
  /// frozen to the tensor in a .pb file (for shape-determining inputs).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  std::map<std::string, std::string> bindings;
  /// A trainable model from a model.json with a 'training' section.
  bool train = false;

  /// LLVM optimization level 0-3; the graph's too unless graphOptLevel.
  unsigned optLevel = 2;
  std::optional<unsigned> graphOptLevel;

  Target target = Target::CPU;
  /// "native", "generic" or an LLVM CPU name. Default: native on the CPU,
  /// generic for a CUDA model's host code (it only launches kernels).
  std::optional<std::string> cpu;
  /// Kernel vector width in bits; default from the CPU's features.
  std::optional<unsigned> vectorBits;
  /// Large kernels run on the runtime's threads.
  bool parallel = true;
  /// One float accumulator per vector lane (not bit-identical to in-order
  /// sums; what every peer does).
  bool reassociateFPReductions = true;
  /// Inference: Winograd F(4x4, 3x3) for eligible 3x3 convolutions.
  bool winograd = true;
  /// Inference on the CPU: convolution regions in the blocked layout.
  bool nchwc = true;
  /// Inference: contractions of dequantized 8-bit values (QDQ models) as
  /// integer kernels (graph-quantized-contractions). Unset: on where the
  /// CPU target has AVX-512 VNNI (vpdpbusd matmul and convolution kernels),
  /// off elsewhere, where integer convolutions are generic loops, far slower
  /// than the float kernels on the dequantized weights.
  std::optional<bool> integerKernels;
  /// Profiling calls around every kernel and the kernel table.
  bool profile = true;

  /// Post-training quantization (docs/quantization.md): "" (none) or
  /// "int8". The scales come from running the float model on the samples in
  /// `calibration` (`calibrationMethod` "minmax" or "percentile"), or from
  /// `quantScales`, a JSON file as --report writes. `keepFloat` names the
  /// contractions (ONNX node names) that stay in float; empty: the first
  /// convolution and the last matmul.
  std::string quantize;
  std::string calibration;
  std::string calibrationMethod = "minmax";
  std::string quantScales;
  std::vector<std::string> keepFloat;
  /// Bits of the quantized weights: 8 ([-127, 127]), or 7 ([-63, 63]): then
  /// the integer kernels of CPUs without VNNI multiply 4 bytes per lane with
  /// vpmaddubsw, whose int16 sums cannot saturate (docs/quantization.md).
  int quantizeWeightBits = 8;

  /// CUDA: the GPUs the fatbin has code for (comma-separated sm_XY, 75 or
  /// newer) and the toolkit (default $CUDA_HOME, else /usr/local/cuda).
  std::string cudaArch = "sm_80,sm_90";
  std::string cudaToolkit;

  /// Verify the IR after every pass (mlir-opt's --verify-each), not only
  /// after each pipeline: for debugging the compiler; a third of the
  /// lowering's time on large models.
  bool verifyEachPass = false;

  /// Where a shared library's weights go (--weights).
  WeightsStorage weights = WeightsStorage::Embedded;

  /// Threads optimizing and emitting the parts; 0: the CPUs this process
  /// may use. The output is the same for every value.
  unsigned jobs = 0;
  /// Shared library or archive: a directory of compiled parts (created if
  /// missing) that later compiles reuse when a part's LLVM IR and the target
  /// are unchanged (Target/ObjectCache.h); empty: no cache. The output is the
  /// same with or without it.
  std::string cacheDir;
  /// Shared library: the runtime archive to link (required) and the C
  /// compiler driver that links (default cc).
  std::string runtimeLib;
  std::string cc;

  /// Archive: the prefix of every symbol the model defines and of its
  /// header's names (a C identifier); empty: archiveSymbolName's default.
  std::string archiveName;
};

} // namespace mlc

#endif
