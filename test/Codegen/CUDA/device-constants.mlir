// Host functions of a CUDA model pass kernels the device copy of each
// global: its address goes through mlc_cuda_device_constant with its size.
// RUN: mlc-opt %s --mlc-device-constants | FileCheck %s

// CHECK-LABEL: llvm.func @host
// CHECK: %[[H:.*]] = llvm.mlir.addressof @w : !llvm.ptr
// CHECK: %[[N:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK: %[[D:.*]] = llvm.call @mlc_cuda_device_constant(%[[H]], %[[N]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: llvm.call @use(%[[D]])
// CHECK: llvm.func @mlc_cuda_device_constant(!llvm.ptr, i64) -> !llvm.ptr
module {
  llvm.mlir.global private constant @w(dense<1.0> : tensor<2x3xf32>) {addr_space = 0 : i32} : !llvm.array<2 x array<3 x f32>>
  llvm.func @use(!llvm.ptr)
  llvm.func @host() {
    %0 = llvm.mlir.addressof @w : !llvm.ptr
    llvm.call @use(%0) : (!llvm.ptr) -> ()
    llvm.return
  }
}
