//===- EvaluateBlocked.h - reference kernels of the blocked layout -*- C++ -*-//
//
// The evaluator's graph.conv2d_nchwc, the blocked Winograd transforms, and
// the moves between the blocked layout [N, C / B, H, W, B] and NCHW
// [N, C, H, W] with which it evaluates the blocked pooling ops
// (EvaluateBlocked.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_DIALECT_GRAPH_EVALUATEBLOCKED_H
#define MLC_LIB_DIALECT_GRAPH_EVALUATEBLOCKED_H

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

namespace mlc::graph {

/// f32 conv2d_nchwc: in = {input, filter[, bias]}, accumulated in the
/// lowering's order.
HostTensor evaluateConv2DNchwc(Conv2DNchwcOp op, llvm::ArrayRef<HostTensor> in,
                               llvm::ArrayRef<int64_t> outShape);

/// conv2d_integer_nchwc of the input minus its zero point (i32, the
/// input's blocked shape) and the int8 filter, in wrapping int32.
HostTensor evaluateConv2DIntegerNchwc(Conv2DIntegerNchwcOp op,
                                      const HostTensor &centeredInput,
                                      const HostTensor &filter,
                                      llvm::ArrayRef<int64_t> outShape);

/// graph.winograd_input / graph.winograd_output (f32), in the CPU kernel's
/// order of operations.
HostTensor evaluateWinogradInput(const HostTensor &x,
                                 llvm::ArrayRef<int64_t> outShape);
HostTensor evaluateWinogradOutput(const HostTensor &m,
                                  llvm::ArrayRef<int64_t> outShape);

/// [N, C / B, H, W, B] -> [N, C, H, W] with C = C / B * B, and back.
HostTensor unblockChannels(const HostTensor &x);
HostTensor blockChannels(const HostTensor &x, int64_t block);

} // namespace mlc::graph

#endif
