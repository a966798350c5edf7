// Large constant globals become flat byte arrays in the weights section; the
// blob is shared, so the value keeps the resource name.
// RUN: mlc-opt %s --mlc-pack-weight-globals="min-bytes=32" | FileCheck %s
// RUN: mlc-opt %s --mlc-pack-weight-globals="min-bytes=32 section=" | FileCheck %s --check-prefix=NOSECTION
// RUN: mlc-opt %s --mlc-pack-weight-globals | FileCheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s --mlc-pack-weight-globals="min-bytes=32" | mlc-opt | FileCheck %s --check-prefix=ROUNDTRIP

// CHECK: llvm.mlir.global private constant @nested(dense_resource<w> : tensor<32xi8>) {{.*}}alignment = 64 : i64, section = ".rodata.mlc_weights"} : !llvm.array<32 x i8>
// CHECK: llvm.mlir.global private constant @flat_i16(dense_resource<w16> : tensor<32xi8>) {{.*}}section = ".rodata.mlc_weights"} : !llvm.array<32 x i8>
// Inline dense data is reinterpreted byte for byte (little-endian f32 0.0 .. 7.0).
// CHECK: llvm.mlir.global private constant @inline(dense<[0, 0, 0, 0, 0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64, 0, 0, -96, 64, 0, 0, -64, 64, 0, 0, -32, 64]> : tensor<32xi8>) {{.*}}section = ".rodata.mlc_weights"} : !llvm.array<32 x i8>
// Too small, a splat, mutable, or bool: unchanged.
// CHECK: llvm.mlir.global private constant @small(dense_resource<s> : tensor<2xf32>) {{.*}} : !llvm.array<2 x f32>
// CHECK: llvm.mlir.global private constant @splat(dense<1.000000e+00> : tensor<4x4xf32>) {{.*}} : !llvm.array<4 x array<4 x f32>>
// CHECK: llvm.mlir.global private @mutable(dense_resource<w> : tensor<2x2x2xf32>) {{.*}} : !llvm.array<2 x array<2 x array<2 x f32>>>
// CHECK: llvm.mlir.global private constant @bools({{.*}} : tensor<4x8xi1>) {{.*}} : !llvm.array<4 x array<8 x i1>>
// Uses only take the address; they are left as they are.
// CHECK: llvm.func @use() -> !llvm.ptr
// CHECK-NEXT: llvm.mlir.addressof @nested : !llvm.ptr

// NOSECTION: llvm.mlir.global private constant @nested(dense_resource<w> : tensor<32xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<32 x i8>

// The default threshold is 1 KiB.
// DEFAULT: llvm.mlir.global private constant @nested(dense_resource<w> : tensor<2x2x2xf32>) {{.*}} : !llvm.array<2 x array<2 x array<2 x f32>>>

// ROUNDTRIP: @nested(dense_resource<w> : tensor<32xi8>)
// ROUNDTRIP: w: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E040"

module {
  llvm.mlir.global private constant @nested(dense_resource<w> : tensor<2x2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<2 x array<2 x f32>>>
  llvm.mlir.global private constant @flat_i16(dense_resource<w16> : tensor<16xi16>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x i16>
  llvm.mlir.global private constant @inline(dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]> : tensor<2x4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<4 x f32>>
  llvm.mlir.global private constant @small(dense_resource<s> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x f32>
  llvm.mlir.global private constant @splat(dense<1.0> : tensor<4x4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x array<4 x f32>>
  llvm.mlir.global private @mutable(dense_resource<w> : tensor<2x2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<2 x array<2 x f32>>>
  llvm.mlir.global private constant @bools(dense<[[true, false, true, false, true, false, true, true], [true, false, true, false, true, false, true, true], [true, false, true, false, true, false, true, true], [true, false, true, false, true, false, true, true]]> : tensor<4x8xi1>) {addr_space = 0 : i32} : !llvm.array<4 x array<8 x i1>>
  llvm.func @use() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @nested : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E040",
      w16: "0x02000000F8FFF9FFFAFFFBFFFCFFFDFFFEFFFFFF00000100020003000400050006000700",
      s: "0x040000000000803F00000040"
    }
  }
#-}
