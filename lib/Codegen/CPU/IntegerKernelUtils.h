//===- IntegerKernelUtils.h - shared parts of the int8 kernels --*- C++ -*-===//
//
// What the VNNI matmul and convolution kernels share: recognizing the
// integer contraction's body, the byte operands of vpdpbusd, the dot step
// as pure vector ops, and the epilogue applied to the corrected sums
// (IntegerKernelUtils.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_INTEGERKERNELUTILS_H
#define MLC_LIB_CODEGEN_CPU_INTEGERKERNELUTILS_H

#include "KernelSchedules.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlc::codegen::int8 {

/// int32 lanes of a zmm register; each takes 4 bytes of the reduction.
constexpr int64_t kLanes = 16;

/// The 8-bit lhs of an integer contraction's body: its signedness and
/// constant zero point.
struct ByteOperand {
  bool isSigned = false;
  int64_t zeroPoint = 0;
};

/// Whether `op`'s body is acc + (ext(x) - zx) * sext(w) with x input 0, w
/// input 1 (int8, zero point 0) and zx a constant (or absent): what
/// vpdpbusd computes once x is read as uint8. Fills `x`.
bool isByteDotBody(mlir::linalg::GenericOp op, ByteOperand &x);

/// The zero point of x as the uint8 bytes the kernel reads: a signed x is
/// read with its sign bit flipped (x + 128).
inline int64_t unsignedZeroPoint(const ByteOperand &x) {
  return x.zeroPoint + (x.isSigned ? 128 : 0);
}

/// 4 bytes of `src` from `indices` on (the last index the first byte),
/// broadcast to every lane as a vector<64xi8> of uint8 values.
mlir::Value broadcastWord(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value src, mlir::ValueRange indices,
                          const ByteOperand &x);

/// 64 packed weight bytes sign-extended, the dot's right operand.
mlir::Value widenWeights(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value bytes);

/// acc + the sums of 4 products of the uint8 `xBytes` and the widened
/// weights per lane, as pure vector ops (bufferization needs known
/// effects): mlc-x86-vnni-dot makes them one vpdpbusd once the buffers are
/// there.
mlir::Value byteDot(mlir::OpBuilder &b, mlir::Location loc, mlir::Value acc,
                    mlir::Value xBytes, mlir::Value wWide);

/// The kernel's output vector: `sum` minus the correction's lanes at
/// `col`, through the epilogue (its inputs read at the output indices
/// `at`), written to `dest` at `destAt` (masked past the end unless
/// `inBounds`); returns the new dest.
mlir::Value writeResult(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value dest, mlir::Value sum,
                        mlir::Value correction, mlir::Value col,
                        mlir::linalg::GenericOp epilogue,
                        llvm::ArrayRef<EpilogueInput> epilogueInputs,
                        llvm::ArrayRef<mlir::Value> at,
                        llvm::ArrayRef<mlir::Value> destAt, bool inBounds);

} // namespace mlc::codegen::int8

#endif
