// Launches must pass exactly what their kernels take, within the block
// limits of CUDA GPUs.
// RUN: mlc-opt %s --split-input-file --mlc-check-kernel-launches -verify-diagnostics | FileCheck %s

// Bare pointers on both sides (the CUDA pipeline's convention): accepted.
// CHECK-LABEL: llvm.func @host_ok
// CHECK: gpu.launch_func @kernels::@k
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: !llvm.ptr, %b: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @host_ok(%a: !llvm.ptr, %b: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c1024 = llvm.mlir.constant(1024 : i64) : i64
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) : i64 args(%a : !llvm.ptr, %b : !llvm.ptr)
    llvm.return
  }
}

// -----

// A kernel lowered with memref descriptors, launched with bare pointers:
// on a GPU the driver would read 5 arguments from an array of 1.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%p: !llvm.ptr, %q: !llvm.ptr, %off: i64, %size: i64, %stride: i64) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @host_descriptors(%a: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    // expected-error @+1 {{launch of @kernels::@k passes 1 argument(s) (!llvm.ptr) but the kernel takes 5 (!llvm.ptr, !llvm.ptr, i64, i64, i64)}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%a : !llvm.ptr)
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @host_big_block(%a: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    // expected-error @+1 {{block of 4096 threads; a CUDA block has at most 1024}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c64, %c1) : i64 args(%a : !llvm.ptr)
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @host_deep_block(%a: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c128 = llvm.mlir.constant(128 : i64) : i64
    // expected-error @+1 {{block size 128 in dimension z is outside 1..64}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c128) : i64 args(%a : !llvm.ptr)
    llvm.return
  }
}
