// A module that already defines one of the pass's string globals gets a
// diagnostic from the pass, not a symbol clash in the verifier.
// RUN: mlc-opt %s --mlc-emit-model-abi -verify-diagnostics

// expected-error @+1 {{symbol '__mlc_signature' is already defined}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  llvm.mlir.global internal constant @__mlc_signature("x\00") {addr_space = 0 : i32}
  llvm.func @main(%arg0: !llvm.ptr) {
    llvm.return
  }
}
