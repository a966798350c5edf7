//===- Passes.td - mlc conversion passes -------------------*- tablegen -*-===//
#ifndef MLC_CONVERSION_PASSES
#define MLC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"convert-graph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower graph ops to linalg/tensor/arith/math on tensors";
  let description = [{
    Each graph op becomes linalg ops on tensors (mostly one linalg.generic
    per op, parallel loops outermost) plus tensor ops for reshapes, slices,
    padding and concatenation. Weights stay dense_resource constants.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect"
  ];
}

def RecordModelSignature : Pass<"mlc-record-model-signature", "mlir::ModuleOp"> {
  let summary = "Record the entry function's tensor signature on the module";
  let description = [{
    Reads the entry function's argument and result types and `mlc.name`
    attributes (defaults: input0.., output0..) and stores the runtime
    signature text (see runtime/include/mlc/model_abi.h) as the module
    attribute `mlc.signature`, before bufferization rewrites the signature.
    Also marks the inputs `bufferization.writable = false`: they are the
    caller's buffers and must never be written in place.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">
  ];
}

def DistinctResultBuffers
    : Pass<"mlc-distinct-result-buffers", "mlir::func::FuncOp"> {
  let summary = "Give every memref a function returns its own buffer";
  let description = [{
    Runs after bufferization, before buffer-results-to-out-params. Every
    model output is written into its own caller buffer, so a buffer returned
    more than once (two outputs that CSE merged, or an output listed twice)
    is copied into a fresh allocation for each repeat. Without this,
    promoting results to out params would have to alias two caller buffers.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def LowerStridedCopies : Pass<"mlc-lower-strided-copies", "mlir::ModuleOp"> {
  let summary = "Turn memref.copy between non-contiguous memrefs into loops";
  let description = [{
    memref.copy between strided memrefs lowers to a call into MLIR's runner
    library, which compiled models must not depend on; rewrite such copies
    as linalg.copy (loops). Contiguous copies stay (they become memcpy).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def EmitModelABI : Pass<"mlc-emit-model-abi", "mlir::ModuleOp"> {
  let summary = "Emit the mlc_model_* C ABI functions around the entry";
  let description = [{
    Runs on LLVM dialect after lowering with the bare-pointer memref calling
    convention. Generates mlc_model_entry(void **buffers, void *workspace)
    calling the entry function, and the metadata functions the runtime
    reads: mlc_model_abi_version, mlc_model_signature (from the
    `mlc.signature` module attribute), mlc_model_cpu_features and
    mlc_model_workspace_bytes. The entry function becomes internal.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "Name of the model's entry function">,
    Option<"cpuFeatures", "cpu-features", "std::string", "\"\"",
           "Comma-separated CPU features the code requires">
  ];
}

#endif // MLC_CONVERSION_PASSES
