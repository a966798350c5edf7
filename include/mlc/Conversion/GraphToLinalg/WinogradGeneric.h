//===- WinogradGeneric.h - the linalg form of the Winograd ops --*- C++ -*-===//
//
// graph.winograd_input and graph.winograd_output lower (GraphToLinalg/
// Winograd.cpp) to one all-parallel linalg.generic over the result, marked
// with kWinogradAttr ("input" or "output"). Its body reads the op's operand
// (captured, not an operand of the generic) with tensor.extract and sums the
// 36 terms of each result element with coefficients from a constant table:
// a plain definition for any backend. The CPU kernel (Codegen/CPU/
// WinogradKernel.cpp) recognizes the generic by its marker and computes
// whole tiles separably instead (mlc/Dialect/Graph/Winograd.h).
//
//===----------------------------------------------------------------------===//
#ifndef MLC_CONVERSION_GRAPHTOLINALG_WINOGRADGENERIC_H
#define MLC_CONVERSION_GRAPHTOLINALG_WINOGRADGENERIC_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlc::lowering {

/// The discardable attribute marking a Winograd transform generic.
inline constexpr llvm::StringLiteral kWinogradAttr = "mlc.winograd";

struct WinogradGeneric {
  bool isInput = true;
  /// The transformed tensor: the padded blocked input, or the products.
  mlir::Value source;
};

/// What a marked Winograd generic computes, if `op` is one.
std::optional<WinogradGeneric> matchWinogradGeneric(mlir::linalg::GenericOp op);

} // namespace mlc::lowering

#endif
