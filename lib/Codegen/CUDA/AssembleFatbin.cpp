//===- AssembleFatbin.cpp - PTX objects -> one fatbin per gpu.binary ------===//
//
// gpu-module-to-binary makes one object per target; the host code loads one
// blob. This pass assembles every target's PTX with CUDA's ptxas and packs
// the cubins, plus the newest target's PTX (for GPUs newer than every
// target, which the driver JIT-compiles), into one fatbin with CUDA's
// fatbinary. The driver then picks the image for the GPU at load time.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

namespace mlc {
#define GEN_PASS_DEF_ASSEMBLEFATBIN
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// Temporary files removed when the pass is done with them.
struct TempFiles {
  SmallVector<std::string> paths;
  ~TempFiles() {
    for (const std::string &p : paths)
      llvm::sys::fs::remove(p);
  }
  FailureOr<std::string> create(StringRef suffix) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("mlc-cuda", suffix, path))
      return failure();
    paths.push_back(path.str().str());
    return paths.back();
  }
};

LogicalResult writeFile(StringRef path, StringRef data) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return failure();
  os << data;
  os.close();
  return failure(os.has_error());
}

struct AssembleFatbin : mlc::impl::AssembleFatbinBase<AssembleFatbin> {
  using Base::Base;

  /// `toolkit`/bin/`name`, or an error naming where it was looked for.
  FailureOr<std::string> tool(Operation *op, StringRef name) {
    SmallString<128> path(toolkit);
    llvm::sys::path::append(path, "bin", name);
    if (!llvm::sys::fs::can_execute(path)) {
      mlir::emitError(op->getLoc())
          << "CUDA's " << name << " not found at '" << path
          << "' (--target=cuda needs the CUDA toolkit; set "
             "--cuda-toolkit or CUDA_HOME)";
      return failure();
    }
    return path.str().str();
  }

  // Diagnostics name the model (the module's location), not a kernel, and
  // carry no op: MLIR would print the whole gpu.binary, every kernel's PTX,
  // after the message.

  /// Runs a tool; on failure reports its exit code and what it printed.
  /// What it printed goes to `output` if given.
  LogicalResult run(Operation *op, StringRef program,
                    ArrayRef<std::string> args, TempFiles &temps,
                    std::string *output = nullptr) {
    FailureOr<std::string> log = temps.create("log");
    if (failed(log))
      return mlir::emitError(op->getLoc(), "cannot create a temporary file");
    SmallVector<StringRef> argv = {program};
    for (const std::string &a : args)
      argv.push_back(a);
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                            StringRef(*log)};
    std::string errMsg;
    int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                       0, 0, &errMsg);
    auto text = llvm::MemoryBuffer::getFile(*log);
    if (rc == 0) {
      if (output && text)
        *output = (*text)->getBuffer().str();
      return success();
    }
    return mlir::emitError(op->getLoc())
           << llvm::sys::path::filename(program) << " failed (exit code " << rc
           << ")" << (errMsg.empty() ? "" : ": " + errMsg) << "\n"
           << (text ? (*text)->getBuffer() : "");
  }

  LogicalResult assemble(gpu::BinaryOp binary,
                         SmallVectorImpl<Attribute> &kernels) {
    TempFiles temps;
    FailureOr<std::string> ptxas = tool(getOperation(), "ptxas");
    FailureOr<std::string> fatbinary = tool(getOperation(), "fatbinary");
    if (failed(ptxas) || failed(fatbinary))
      return failure();
    std::vector<std::string> fatArgs = {"-64"};
    NVVM::NVVMTargetAttr newest;
    std::string newestPtx;
    for (Attribute a : binary.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(a);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly)
        return mlir::emitError(getOperation().getLoc(),
                               "expected PTX objects for NVVM targets (run "
                               "gpu-module-to-binary{format=isa})");
      StringRef chip = target.getChip();
      if (!chip.consume_front("sm_"))
        return mlir::emitError(getOperation().getLoc())
               << "unexpected NVVM chip " << chip;
      FailureOr<std::string> ptx = temps.create("ptx");
      FailureOr<std::string> cubin = temps.create("cubin");
      if (failed(ptx) || failed(cubin) ||
          failed(writeFile(*ptx, object.getObject().getValue())))
        return mlir::emitError(getOperation().getLoc(),
                               "cannot write a temporary file");
      std::string optLevel = "-O" + std::to_string(target.getO());
      std::string log;
      if (failed(run(
              getOperation(), *ptxas,
              {"-arch=sm_" + chip.str(), optLevel, "-v", *ptx, "-o", *cubin},
              temps, &log)))
        return failure();
      recordResources("sm_" + chip.str(), log, kernels);
      fatArgs.push_back("--image3=kind=elf,sm=" + chip.str() +
                        ",file=" + *cubin);
      if (!newest || chip.compare_numeric(newest.getChip().drop_front(3)) > 0) {
        newest = target;
        newestPtx = *ptx;
      }
    }
    if (!newest)
      return mlir::emitError(getOperation().getLoc(),
                             "gpu.binary without objects");
    fatArgs.push_back(
        "--image3=kind=ptx,sm=" + newest.getChip().drop_front(3).str() +
        ",file=" + newestPtx);
    FailureOr<std::string> out = temps.create("fatbin");
    if (failed(out))
      return mlir::emitError(getOperation().getLoc(),
                             "cannot create a temporary file");
    fatArgs.push_back("--create=" + *out);
    if (failed(run(getOperation(), *fatbinary, fatArgs, temps)))
      return failure();
    auto data = llvm::MemoryBuffer::getFile(*out, /*IsText=*/false);
    if (!data)
      return mlir::emitError(getOperation().getLoc(),
                             "cannot read the fatbin fatbinary wrote");
    auto object = gpu::ObjectAttr::get(
        binary.getContext(), newest, gpu::CompilationTarget::Fatbin,
        StringAttr::get(binary.getContext(), (*data)->getBuffer()), nullptr,
        nullptr);
    binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), {object}));
    return success();
  }

  /// What ptxas -v said each kernel uses, for the compile report: a spill
  /// or a stack frame in a hot kernel is a performance bug worth seeing.
  void recordResources(StringRef chip, StringRef log,
                       SmallVectorImpl<Attribute> &kernels) {
    MLIRContext *ctx = &getContext();
    llvm::Regex entry("Compiling entry function '([^']+)'");
    llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                      "stores, ([0-9]+) bytes spill loads");
    llvm::Regex used("Used ([0-9]+) registers");
    llvm::Regex smem("([0-9]+) bytes smem");
    SmallVector<NamedAttribute> fields;
    auto number = [&](StringRef name, StringRef text) {
      int64_t v = 0;
      text.getAsInteger(10, v);
      fields.emplace_back(StringAttr::get(ctx, name),
                          IntegerAttr::get(IntegerType::get(ctx, 64), v));
    };
    auto flush = [&] {
      if (!fields.empty())
        kernels.push_back(DictionaryAttr::get(ctx, fields));
      fields.clear();
    };
    SmallVector<StringRef> lines;
    log.split(lines, '\n');
    SmallVector<StringRef> m;
    for (StringRef line : lines) {
      if (entry.match(line, &m)) {
        flush();
        fields.emplace_back(StringAttr::get(ctx, "kernel"),
                            StringAttr::get(ctx, m[1]));
        fields.emplace_back(StringAttr::get(ctx, "chip"),
                            StringAttr::get(ctx, chip));
      } else if (fields.empty()) {
        continue;
      } else if (frame.match(line, &m)) {
        number("stack_bytes", m[1]);
        number("spill_store_bytes", m[2]);
        number("spill_load_bytes", m[3]);
      } else if (used.match(line, &m)) {
        number("registers", m[1]);
        number("shared_bytes", smem.match(line, &m) ? m[1] : "0");
      }
    }
    flush();
  }

  void runOnOperation() override {
    SmallVector<Attribute> kernels;
    for (auto binary : getOperation().getOps<gpu::BinaryOp>())
      if (failed(assemble(binary, kernels)))
        return signalPassFailure();
    // mlc-compile --report lists them.
    getOperation()->setAttr("mlc.cuda_kernels",
                            ArrayAttr::get(&getContext(), kernels));
  }
};

} // namespace
