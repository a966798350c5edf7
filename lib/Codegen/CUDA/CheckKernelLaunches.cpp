//===- CheckKernelLaunches.cpp - launches agree with their kernels --------===//
//
// The CUDA driver takes a launch's arguments as an untyped array and reads
// as many as the kernel's image declares: a launch passing bare pointers to
// a kernel that expects memref descriptors reads past the array, and fails
// (or crashes) only on a GPU. So the host and device conventions are checked
// here, at compile time, together with the block-size limits every NVIDIA
// GPU has.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlc {
#define GEN_PASS_DEF_CHECKKERNELLAUNCHES
#include "mlc/Codegen/CUDA/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

// Limits of every CUDA GPU since compute capability 2.0.
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};

std::string typeList(TypeRange types) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(types, os);
  return s;
}

LogicalResult checkLaunch(gpu::LaunchFuncOp launch) {
  Operation *kernel =
      SymbolTable::lookupNearestSymbolFrom(launch, launch.getKernel());
  if (!kernel)
    return launch.emitError("kernel ") << launch.getKernel() << " not found";
  // An llvm.func after lowering, a gpu.func before.
  auto fn = dyn_cast<FunctionOpInterface>(kernel);
  if (!fn)
    return launch.emitError("kernel ")
           << launch.getKernel() << " is not a function";
  ArrayRef<Type> params = fn.getArgumentTypes();
  TypeRange args = launch.getKernelOperands().getTypes();
  if (TypeRange(params) != args)
    return launch.emitError("launch of ")
           << launch.getKernel() << " passes " << args.size()
           << " argument(s) (" << typeList(args) << ") but the kernel takes "
           << params.size() << " (" << typeList(params) << ")";

  Value block[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                    launch.getBlockSizeZ()};
  int64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    APInt size;
    if (!matchPattern(block[d], m_ConstantInt(&size)))
      return success(); // a run-time size: the driver checks it
    int64_t n = size.getSExtValue();
    if (n < 1 || n > kMaxBlockDim[d])
      return launch.emitError("block size ")
             << n << " in dimension "
             << "xyz"[d] << " is outside 1.." << kMaxBlockDim[d];
    threads *= n;
  }
  if (threads > kMaxThreadsPerBlock)
    return launch.emitError("block of ")
           << threads << " threads; a CUDA block has at most "
           << kMaxThreadsPerBlock;
  return success();
}

struct CheckKernelLaunches
    : mlc::impl::CheckKernelLaunchesBase<CheckKernelLaunches> {
  void runOnOperation() override {
    WalkResult r = getOperation().walk([](gpu::LaunchFuncOp launch) {
      return failed(checkLaunch(launch)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
