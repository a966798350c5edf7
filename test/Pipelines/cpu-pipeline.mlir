// The CPU pipelines on a small model: matmul + broadcast add of a constant
// + erf, and a relu of an input returned as a second output.
// RUN: mlc-opt %s --mlc-lower-to-loops="vector-bits=0" | FileCheck %s --check-prefix=LOOPS --implicit-check-not=tensor. --implicit-check-not=linalg. --implicit-check-not=bufferization. --implicit-check-not=graph. --implicit-check-not=memref.alloc --implicit-check-not=memref.copy --implicit-check-not=vector.
// RUN: mlc-opt %s --mlc-lower-to-loops | FileCheck %s --check-prefix=VECTOR --implicit-check-not=tensor. --implicit-check-not=linalg. --implicit-check-not=bufferization. --implicit-check-not=graph. --implicit-check-not=memref.alloc --implicit-check-not=memref.copy
// RUN: mlc-opt %s --mlc-lower-to-loops | FileCheck %s --check-prefix=READONLY
// RUN: mlc-opt %s --mlc-cpu-pipeline="cpu-features=avx2,fma" | FileCheck %s --check-prefixes=LLVM,FEATURES --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=cf. --implicit-check-not=arith. --implicit-check-not=math. --implicit-check-not=func.func --implicit-check-not=tensor. --implicit-check-not=linalg. --implicit-check-not=vector. --implicit-check-not=ub.
// RUN: mlc-opt %s --mlc-cpu-pipeline | FileCheck %s --check-prefixes=LLVM,NOFEATURES
// RUN: mlc-opt %s --mlc-lower-to-loops | mlc-opt --mlc-lower-to-llvm | FileCheck %s --check-prefixes=LLVM,NOFEATURES
// RUN: mlc-opt %s --mlc-cpu-pipeline="profile=false" | FileCheck %s --check-prefix=NOPROFILE --implicit-check-not=mlc_profile --implicit-check-not=mlc.kernels --implicit-check-not=mlc_model_kernels

// Loops over buffers (scalar kernels, vector-bits=0): the signature is
// recorded before bufferization, the results become out-params after the
// inputs, the constant is a global, and every op is a loop nest writing
// straight into the out-params. No intermediates: the static memory plan's
// workspace is empty. Each op is a kernel (nothing is grouped without the
// graph optimizations), bracketed by the profiling calls (mlc.kernels: its
// FLOPs, ops and, without node names, the line of the op).
// LOOPS: module attributes {mlc.kernels = "48 matmul cpu-pipeline.mlir:{{[0-9]+}}\0A8 add cpu-pipeline.mlir:{{[0-9]+}}\0A8 erf cpu-pipeline.mlir:{{[0-9]+}}\0A6 relu cpu-pipeline.mlir:{{[0-9]+}}\0A", mlc.signature = "in f32 [2,3] x\0Ain f32 [3,4] input1\0Aout f32 [2,4] y\0Aout f32 [2,3] output1\0A", mlc.workspace_bytes = 0 : i64, mlc.workspace_lower_bound_bytes = 0 : i64}
// LOOPS: memref.global "private" constant @[[CST:.*]] : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// LOOPS: func.func @main(%[[X:.*]]: memref<2x3xf32> {mlc.name = "x"}, %[[W:.*]]: memref<3x4xf32>, %[[Y:.*]]: memref<2x4xf32> {mlc.name = "y"}, %[[R:.*]]: memref<2x3xf32>, %{{.*}}: memref<0xi8>) {
// LOOPS-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// LOOPS-DAG: %[[G:.*]] = memref.get_global @[[CST]] : memref<4xf32>
// Zero-fill of the matmul accumulator.
// LOOPS: call @mlc_profile_begin(%[[K0:.*]]) : (i32) -> ()
// LOOPS-NEXT: scf.for %[[I:[a-z0-9_]+]] =
// LOOPS-NEXT: scf.for %[[J:[a-z0-9_]+]] =
// LOOPS-NEXT: memref.store %[[ZERO]], %[[Y]][%[[I]], %[[J]]] : memref<2x4xf32>
// Matmul: i, j, then the reduction loop k innermost.
// LOOPS: scf.for %[[I:[a-z0-9_]+]] =
// LOOPS-NEXT: scf.for %[[J:[a-z0-9_]+]] =
// LOOPS-NEXT: scf.for %[[K:[a-z0-9_]+]] =
// LOOPS-NEXT: memref.load %[[X]][%[[I]], %[[K]]]
// LOOPS-NEXT: memref.load %[[W]][%[[K]], %[[J]]]
// LOOPS-NEXT: memref.load %[[Y]][%[[I]], %[[J]]]
// LOOPS-NEXT: arith.mulf
// LOOPS-NEXT: arith.addf
// LOOPS-NEXT: memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// Broadcast add of the constant: it is indexed by j only.
// LOOPS: call @mlc_profile_end(%[[K0]]) : (i32) -> ()
// LOOPS-NEXT: call @mlc_profile_begin(%[[K1:.*]]) : (i32) -> ()
// LOOPS-NEXT: scf.for %[[I:[a-z0-9_]+]] =
// LOOPS-NEXT: scf.for %[[J:[a-z0-9_]+]] =
// LOOPS-NEXT: memref.load %[[Y]][%[[I]], %[[J]]]
// LOOPS-NEXT: memref.load %[[G]][%[[J]]] : memref<4xf32>
// LOOPS-NEXT: arith.addf
// LOOPS-NEXT: memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// LOOPS: math.erf
// Relu reads the input and writes the second out-param.
// LOOPS: scf.for %[[I:[a-z0-9_]+]] =
// LOOPS-NEXT: scf.for %[[J:[a-z0-9_]+]] =
// LOOPS-NEXT: %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// LOOPS-NEXT: %[[M:.*]] = arith.maximumf %[[V]], %[[ZERO]] : f32
// LOOPS-NEXT: memref.store %[[M]], %[[R]][%[[I]], %[[J]]]
// LOOPS: call @mlc_profile_end(%[[K3:.*]]) : (i32) -> ()
// LOOPS-NEXT: return
// LOOPS-NEXT: }
// LOOPS: func.func private @mlc_profile_begin(i32)
// LOOPS: func.func private @mlc_profile_end(i32)

// The default vector kernels (256 bits): the fill, the bias add and relu
// are one vector per row (4 and 3 lanes); the matmul (no fusion group here,
// so no contraction kernel) keeps its loops; erf is vector code too (a
// polynomial after mlc-approximate-math). The add and erf still work in
// place in the out-param: the workspace stays empty.
// VECTOR: module attributes {{.*}}mlc.workspace_bytes = 0 : i64
// VECTOR: func.func @main(%[[X:.*]]: memref<2x3xf32> {mlc.name = "x"}, %[[W:.*]]: memref<3x4xf32>, %[[Y:.*]]: memref<2x4xf32> {mlc.name = "y"}, %[[R:.*]]: memref<2x3xf32>, %{{.*}}: memref<0xi8>) {
// VECTOR: scf.for
// VECTOR: vector.transfer_write %{{.*}} : vector<4xf32>, memref<1x4xf32
// VECTOR: scf.for
// VECTOR-NEXT: scf.for
// VECTOR-NEXT: scf.for
// VECTOR-NEXT: memref.load %[[X]]
// VECTOR: %[[B:.*]] = vector.transfer_read %{{.*}} : memref<4xf32>, vector<4xf32>
// VECTOR: scf.for %[[I:[a-z0-9_]+]] =
// VECTOR: %[[V:.*]] = vector.transfer_read %[[Y]][%[[I]], %{{.*}}]{{.*}} : memref<2x4xf32>, vector<4xf32>
// VECTOR-NEXT: arith.addf %[[V]], %[[B]] : vector<4xf32>
// VECTOR: scf.for
// VECTOR: vector.transfer_read %[[Y]]
// VECTOR-NEXT: math.erf %{{.*}} : vector<4xf32>
// VECTOR: scf.for
// VECTOR: vector.transfer_read %[[X]]{{.*}} : memref<2x3xf32>, vector<3xf32>
// VECTOR-NEXT: arith.maximumf %{{.*}}, %{{.*}} : vector<3xf32>
// VECTOR: return

// Inputs are the caller's buffers: nothing is stored into them.
// READONLY: func.func @main(%[[X:[a-z0-9_]+]]: memref<2x3xf32> {{.*}}, %[[W:[a-z0-9_]+]]: memref<3x4xf32>,
// READONLY-NOT: memref.store {{.*}}, %[[X]][
// READONLY-NOT: memref.store {{.*}}, %[[W]][
// READONLY: return

// LLVM dialect with the model C ABI. The entry takes bare pointers and is
// internal, the workspace last (its size depends on the graph
// optimizations); erf is mlc-approximate-math's inline polynomial, not a
// call to libm's erff.
// LLVM: module attributes {mlc.kernels = {{.*}}, mlc.signature = "in f32 [2,3] x\0Ain f32 [3,4] input1\0Aout f32 [2,4] y\0Aout f32 [2,3] output1\0A", mlc.workspace_bytes = [[WSB:[0-9]+]] : i64, mlc.workspace_lower_bound_bytes = {{[0-9]+}} : i64}
// FEATURES-DAG: llvm.mlir.global internal constant @__mlc_cpu_features("avx2,fma\00")
// NOFEATURES-DAG: llvm.mlir.global internal constant @__mlc_cpu_features("\00")
// LLVM-DAG: llvm.mlir.global internal constant @__mlc_signature("in f32 [2,3] x\0Ain f32 [3,4] input1\0Aout f32 [2,4] y\0Aout f32 [2,3] output1\0A\00")
// LLVM-DAG: llvm.mlir.global private constant @__constant_4xf32(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>)
// LLVM: llvm.func internal @main(%{{.*}}: !llvm.ptr {mlc.name = "x"}, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {mlc.name = "y"}, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.noalias})
// LLVM-NOT: @erff
// LLVM: llvm.func @mlc_model_abi_version() -> i32
// LLVM: llvm.func @mlc_model_workspace_bytes() -> i64
// LLVM-NEXT: llvm.mlir.constant([[WSB]] : i64)
// LLVM: llvm.func @mlc_model_signature() -> !llvm.ptr
// LLVM: llvm.func @mlc_model_cpu_features() -> !llvm.ptr
// LLVM: llvm.func @mlc_model_kernels() -> !llvm.ptr
// LLVM: llvm.func @mlc_model_entry(%{{.*}}: !llvm.ptr, %[[WS:.*]]: !llvm.ptr)
// LLVM: llvm.call @main(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[WS]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// profile=false: no brackets and no kernel table.
// NOPROFILE: llvm.func @mlc_model_entry

func.func @main(%x: tensor<2x3xf32> {mlc.name = "x"}, %w: tensor<3x4xf32>) -> (tensor<2x4xf32> {mlc.name = "y"}, tensor<2x3xf32>) {
  %c = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.add %0, %c : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = graph.erf %1 : tensor<2x4xf32>
  %3 = graph.relu %x : tensor<2x3xf32>
  return %2, %3 : tensor<2x4xf32>, tensor<2x3xf32>
}
