// --mlc-emit-model-abi wraps the LLVM-dialect entry function in the five C
// symbols the runtime looks up, and makes the entry internal.
// RUN: mlc-opt %s --split-input-file --mlc-emit-model-abi -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module attributes {mlc.signature = "in f32 [2] a\0Ain i64 [3] b\0Aout f32 [2] y\0A"}
// Both strings are null-terminated internal globals.
// CHECK-DAG: llvm.mlir.global internal constant @__mlc_cpu_features("\00")
// CHECK-DAG: llvm.mlir.global internal constant @__mlc_signature("in f32 [2] a\0Ain i64 [3] b\0Aout f32 [2] y\0A\00")
// CHECK: llvm.func internal @main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// Other functions keep their linkage.
// CHECK: llvm.func @helper()
// CHECK: llvm.func @mlc_model_abi_version() -> i32
// CHECK-NEXT: %[[V:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.return %[[V]] : i32
// CHECK: llvm.func @mlc_model_workspace_bytes() -> i64
// CHECK-NEXT: %[[W:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.return %[[W]] : i64
// CHECK: llvm.func @mlc_model_signature() -> !llvm.ptr
// CHECK-NEXT: %[[SA:.*]] = llvm.mlir.addressof @__mlc_signature : !llvm.ptr
// CHECK-NEXT: %[[SP:.*]] = llvm.getelementptr %[[SA]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<41 x i8>
// CHECK-NEXT: llvm.return %[[SP]] : !llvm.ptr
// CHECK: llvm.func @mlc_model_cpu_features() -> !llvm.ptr
// CHECK-NEXT: %[[CA:.*]] = llvm.mlir.addressof @__mlc_cpu_features : !llvm.ptr
// CHECK-NEXT: %[[CP:.*]] = llvm.getelementptr %[[CA]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<1 x i8>
// CHECK-NEXT: llvm.return %[[CP]] : !llvm.ptr
// mlc_model_entry(void **buffers, void *workspace) loads one pointer per
// tensor, inputs then outputs, and calls the entry.
// CHECK: llvm.func @mlc_model_entry(%[[BUFS:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %[[BUFS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[BUFS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[S2:.*]] = llvm.getelementptr %[[BUFS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.call @main(%[[P0]], %[[P1]], %[[P2]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
module attributes {mlc.signature = "in f32 [2] a\nin i64 [3] b\nout f32 [2] y\n"} {
  llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) {
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
}

// -----

// With a static memory plan (mlc.workspace_bytes), the entry takes the
// 64-byte aligned workspace as its last pointer and mlc_model_entry passes
// its second argument there.
// CHECK-LABEL: module attributes {mlc.signature = "in f32 [2] a\0Aout f32 [2] y\0A", mlc.workspace_bytes = 4160 : i64}
// CHECK: llvm.func internal @main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias})
// CHECK: llvm.func @mlc_model_workspace_bytes() -> i64
// CHECK-NEXT: %[[W:.*]] = llvm.mlir.constant(4160 : i64) : i64
// CHECK-NEXT: llvm.return %[[W]] : i64
// CHECK: llvm.func @mlc_model_entry(%[[BUFS:.*]]: !llvm.ptr, %[[WS:.*]]: !llvm.ptr)
// CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK-NEXT: %[[P0:.*]] = llvm.load %[[S0]]
// CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK-NEXT: %[[P1:.*]] = llvm.load %[[S1]]
// CHECK-NEXT: llvm.call @main(%[[P0]], %[[P1]], %[[WS]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
module attributes {mlc.signature = "in f32 [2] a\nout f32 [2] y\n", mlc.workspace_bytes = 4160 : i64} {
  llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) {
    llvm.return
  }
}

// -----

// A memory plan without the workspace argument.
// expected-error @+1 {{entry function must take one pointer per input and output (2) and the workspace pointer and return nothing}}
module attributes {mlc.signature = "in f32 [2] a\nout f32 [2] y\n", mlc.workspace_bytes = 64 : i64} {
  llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{mlc.workspace_bytes must not be negative}}
module attributes {mlc.signature = "out f32 [2] y\n", mlc.workspace_bytes = -1 : i64} {
  llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{missing mlc.signature module attribute (run mlc-record-model-signature before bufferization)}}
module {
  llvm.func @main(%arg0: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{entry function 'main' not found in LLVM dialect (lower it first)}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  func.func @main(%arg0: memref<2xf32>) {
    return
  }
}

// -----

// Two tensors in the signature, three pointers in the entry.
// expected-error @+1 {{entry function must take one pointer per input and output (2) and return nothing; lower it with buffer results as out params and the bare-pointer calling convention}}
module attributes {mlc.signature = "in f32 [2] a\nout f32 [2] y\n"} {
  llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{entry function must take one pointer per input and output (1)}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  llvm.func @main(%arg0: i64) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{entry function must take one pointer per input and output (1)}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  llvm.func @main(%arg0: !llvm.ptr) -> i32 {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
}

// -----

// expected-error @+1 {{symbol 'mlc_model_entry' is already defined}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  llvm.func @main(%arg0: !llvm.ptr) {
    llvm.return
  }
  llvm.func @mlc_model_entry(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{symbol 'mlc_model_abi_version' is already defined}}
module attributes {mlc.signature = "out f32 [2] y\n"} {
  llvm.func @main(%arg0: !llvm.ptr) {
    llvm.return
  }
  llvm.func @mlc_model_abi_version() -> i32
}
