//===- Passes.td - codegen passes shared by CPU and CUDA ---*- tablegen -*-===//
#ifndef MLC_CODEGEN_COMMON_PASSES
#define MLC_CODEGEN_COMMON_PASSES

include "mlir/Pass/PassBase.td"

def OutlineKernels : Pass<"mlc-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Move each kernel's loop nest out of the entry function";
  let description = [{
    After bufferization, every top-level op of the entry function that has
    regions, no results and at least `min-ops` nested ops (a kernel's loop
    nest) moves into its own private, noinline function
    `<entry>_kernel<i>`, called where it was. Values it uses from the entry
    function become arguments, except side-effect-free ops without regions
    (constants, memref.get_global, views, index arithmetic), which are
    cloned into the kernel: the arguments are buffers (function arguments,
    allocations) and values computed at run time. LLVM's loop passes are
    superlinear in a function's size, and separate functions can be
    compiled in parallel.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">,
    Option<"minOps", "min-ops", "int64_t", /*default=*/"8",
           "Smallest nest (ops inside it) worth a function of its own">
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def MergeKernels : Pass<"mlc-merge-kernels", "mlir::ModuleOp"> {
  let summary = "Kernels identical but for their weights and buffers share "
                "one function";
  let description = [{
    Runs after mlc-outline-kernels. In each kernel, the weights it reads
    (memref.get_global) and the views of its buffer arguments at constant
    byte shifts (memref.view: the workspace slots of the static memory
    plan) stand for arguments: a kernel's canonical form has them appended
    to its arguments, the dead constants dropped and the top-level
    constants in one order. Kernels called once from the entry function
    whose forms print the same become one function, named after the first
    of them, and every call site passes its own globals and views. A kernel
    with no twin is left as it is.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The model's entry function (its kernels are <entry>_kernel<N>)">,
  ];
  let statistics = [
    Statistic<"merged", "shared-functions",
              "Functions now shared by several kernels">,
    Statistic<"removed", "removed-functions",
              "Kernel functions replaced by a shared one">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def LinalgToLoops : Pass<"mlc-linalg-to-loops", "mlir::func::FuncOp"> {
  let summary = "Linalg ops on buffers as scf.for loops, nothing else";
  let description = [{
    What is left of linalg after bufferization (the ops no kernel schedule
    vectorized: a few per model) becomes scf.for loop nests, each op on its
    own. MLIR's convert-linalg-to-loops does the same and then runs its
    folding patterns greedily over the whole function: 0.27 s on
    DenseNet-121's entry function for its three linalg ops. The
    canonicalization that follows in the pipeline does that folding.

    With `register-accumulators` (CUDA), an op with reduction loops keeps
    each output element in a loop-carried scalar over its reductions: one
    load before, one store after. Without it every step stores to the
    output, and on a GPU nothing moves those stores out of the loop (the
    kernel's pointers may alias as far as LLVM knows; a reduction's output
    never shares memory with its inputs, as neither bufferization nor the
    memory plan put it there). The multiply-adds of those reductions are
    then marked contractible, so that they become fused multiply-adds, as
    in the tiled kernels.
  }];
  let options = [
    Option<"registerAccumulators", "register-accumulators", "bool",
           /*default=*/"false",
           "Reductions accumulate in scalars carried by their loops, with "
           "contractible multiply-adds">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

#endif // MLC_CODEGEN_COMMON_PASSES
