// The prefix option names the exported symbols of a trainable model's other
// function families (mlc_train_*, mlc_init_*; see model_abi.h).
// RUN: mlc-opt %s --mlc-emit-model-abi="prefix=mlc_train entry=train_step" | FileCheck %s

// CHECK-LABEL: module attributes
// CHECK: llvm.func internal @train_step(
// CHECK-DAG: llvm.func @mlc_train_abi_version() -> i32
// CHECK-DAG: llvm.func @mlc_train_workspace_bytes() -> i64
// CHECK-DAG: llvm.func @mlc_train_signature() -> !llvm.ptr
// CHECK-DAG: llvm.func @mlc_train_cpu_features() -> !llvm.ptr
// CHECK-DAG: llvm.func @mlc_train_entry(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: @mlc_model_
module attributes {mlc.signature = "param f32 [1] w\nout f32 [] loss\nupdate f32 [1] w\n"} {
  llvm.func @train_step(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) {
    llvm.return
  }
}
