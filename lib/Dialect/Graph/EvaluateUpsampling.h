//===- EvaluateUpsampling.h - reference upsampling kernels -*- C++ -*-===//
//
// The evaluator's kernels for graph.resize and graph.conv_transpose2d
// (EvaluateUpsampling.cpp), called from evaluateOp. Like the rest of the
// evaluator they mirror the linalg lowering's arithmetic exactly.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_DIALECT_GRAPH_EVALUATEUPSAMPLING_H
#define MLC_LIB_DIALECT_GRAPH_EVALUATEUPSAMPLING_H

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

namespace mlc::graph {

/// f32 resize: in = {input, index tables..., weight tables...}.
HostTensor evaluateResize(ResizeOp op, llvm::ArrayRef<HostTensor> in,
                          llvm::ArrayRef<int64_t> outShape);

/// f32 conv_transpose2d: in = {input, filter[, bias]}.
HostTensor evaluateConvTranspose2D(llvm::ArrayRef<HostTensor> in,
                                   llvm::ArrayRef<int64_t> outShape);

} // namespace mlc::graph

#endif
