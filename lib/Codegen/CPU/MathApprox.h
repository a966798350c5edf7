//===- MathApprox.h - inline approximations of math functions ---*- C++ -*-===//
//
// Patterns of mlc-approximate-math that are mlc's own rather than MLIR's.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_CODEGEN_CPU_MATHAPPROX_H
#define MLC_LIB_CODEGEN_CPU_MATHAPPROX_H

#include "mlir/IR/PatternMatch.h"

namespace mlc {

/// f32 math.erf (scalar or vector) as one rational function of x^2 with a
/// single division (ErfApproximation.cpp: accuracy and cost).
void populateRationalErfPatterns(mlir::RewritePatternSet &patterns);

} // namespace mlc

#endif // MLC_LIB_CODEGEN_CPU_MATHAPPROX_H
