// A kernel through NVVM to PTX for both default chips, then ptxas and
// fatbinary: one fatbin object replaces the two PTX objects.
// REQUIRES: cuda-toolkit
// RUN: mlc-opt %s --pass-pipeline='builtin.module(gpu-kernel-outlining,mlc-merge-gpu-modules,nvvm-attach-target{chip=sm_80 features=+ptx80 O=3},nvvm-attach-target{chip=sm_90 features=+ptx80 O=3},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX
// RUN: mlc-opt %s --pass-pipeline='builtin.module(gpu-kernel-outlining,mlc-merge-gpu-modules,nvvm-attach-target{chip=sm_80 features=+ptx80 O=3},nvvm-attach-target{chip=sm_90 features=+ptx80 O=3},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa},mlc-assemble-fatbin{toolkit=%cuda_toolkit})' | FileCheck %s --check-prefix=FATBIN
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(gpu-kernel-outlining,nvvm-attach-target{chip=sm_80},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa},mlc-assemble-fatbin{toolkit=%t.missing})' 2>&1 | FileCheck %s --check-prefix=MISSING

// Both kernels in one module, so one PTX text per chip holds both entries;
// the thread's element is loaded from and stored to global memory.
// PTX: gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// PTX-SAME: .target sm_80
// PTX-SAME: .entry scale_kernel(
// PTX-SAME: .entry scale_kernel_0(
// PTX-SAME: ld.global.b32
// PTX-SAME: mul.rn.f32
// PTX-SAME: st.global.b32
// PTX-SAME: #gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX-SAME: .target sm_90

// The fatbin's magic number (0xBA55ED50, little-endian) starts the object.
// FATBIN: gpu.binary @scale_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, "P\EDU\BA
// FATBIN-NOT: #gpu.object

// MISSING: error: CUDA's ptxas not found at '{{.*}}.missing/bin/ptxas' (--target=cuda needs the CUDA toolkit; set --cuda-toolkit or CUDA_HOME)

module attributes {gpu.container_module} {
  func.func @scale(%a: memref<256xf32>, %b: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %two = arith.constant 2.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %v = memref.load %a[%tx] : memref<256xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %b[%tx] : memref<256xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %v = memref.load %b[%tx] : memref<256xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %a[%tx] : memref<256xf32>
      gpu.terminator
    }
    return
  }
}
