// The kernels of every gpu.module move into the first one (renamed on a
// clash) and the launches follow them.
// RUN: mlc-opt %s --mlc-merge-gpu-modules | FileCheck %s

// CHECK: gpu.module @a {
// CHECK-DAG: gpu.func @k(
// CHECK-DAG: gpu.func @k_0(
// CHECK-DAG: gpu.func @other(
// CHECK: }
// CHECK-NOT: gpu.module
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @a::@k blocks
// CHECK: gpu.launch_func @a::@k_0 blocks
// CHECK: gpu.launch_func @a::@other blocks
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @k(%x: memref<4xf32>) kernel { gpu.return }
  }
  gpu.module @b {
    gpu.func @k(%x: memref<4xf32>) kernel { gpu.return }
  }
  gpu.module @c {
    gpu.func @other(%x: memref<4xf32>) kernel { gpu.return }
  }
  func.func @host(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @c::@other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
