// The entry option picks the function to wrap (default: main); cpu-features
// is returned by mlc_model_cpu_features.
// RUN: mlc-opt %s --mlc-emit-model-abi | FileCheck %s
// RUN: mlc-opt %s --mlc-emit-model-abi="cpu-features=avx2,fma entry=predict" | FileCheck %s --check-prefix=OPTS

// CHECK-LABEL: module attributes {mlc.signature = "out i32 [1] z\0A"}
// CHECK: llvm.mlir.global internal constant @__mlc_cpu_features("\00")
// CHECK: llvm.func @predict(%{{.*}}: !llvm.ptr)
// CHECK: llvm.func internal @main(%{{.*}}: !llvm.ptr)
// CHECK: llvm.func @mlc_model_entry(
// CHECK: llvm.call @main(

// OPTS-LABEL: module attributes {mlc.signature = "out i32 [1] z\0A"}
// OPTS: llvm.mlir.global internal constant @__mlc_cpu_features("avx2,fma\00")
// OPTS: llvm.func internal @predict(%{{.*}}: !llvm.ptr)
// OPTS-NEXT: llvm.return
// OPTS-NEXT: }
// OPTS-NEXT: llvm.func @main(%{{.*}}: !llvm.ptr)
// OPTS: llvm.func @mlc_model_cpu_features() -> !llvm.ptr
// OPTS-NEXT: %[[A:.*]] = llvm.mlir.addressof @__mlc_cpu_features : !llvm.ptr
// OPTS-NEXT: llvm.getelementptr %[[A]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<9 x i8>
// OPTS: llvm.func @mlc_model_entry(%[[BUFS:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
// OPTS-NEXT: %[[S0:.*]] = llvm.getelementptr %[[BUFS]][0]
// OPTS-NEXT: %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// OPTS-NEXT: llvm.call @predict(%[[P0]]) : (!llvm.ptr) -> ()
module attributes {mlc.signature = "out i32 [1] z\n"} {
  llvm.func @predict(%arg0: !llvm.ptr) {
    llvm.return
  }
  llvm.func @main(%arg0: !llvm.ptr) {
    llvm.return
  }
}
