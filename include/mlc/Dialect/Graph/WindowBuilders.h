//===- WindowBuilders.h - convolutions and pooling over 1-3 dims -*- C++
//-*-===//
//
// The graph dialect's window ops are 2-D (conv2d, maxpool2d, avgpool2d and
// the transposed convolution built from conv2d); 1-D and 3-D ones are built
// from them here, for every frontend: a 1-D window op is the 2-D one over a
// unit row; a 3-D convolution is one 2-D convolution over depth-stacked
// channels; 3-D pooling is separable; a 3-D transposed convolution is one 2-D
// one per depth tap, spread and summed. The gradients then come from the 2-D
// ops' and the layout ops' own rules.
//
// Operands come from user models, so ops are created through a
// CheckedBuilder, which reports an op that does not accept its operands at
// the node being imported instead of aborting as the ODS builders do.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_DIALECT_GRAPH_WINDOWBUILDERS_H
#define MLC_DIALECT_GRAPH_WINDOWBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace mlc::graph {

/// Creates graph ops whose result types are inferred, failing (with the
/// op's own diagnostic) where the operands do not fit. The ONNX importer's
/// NodeContext is one; LocatedBuilder is the plain one at a location.
class CheckedBuilder {
public:
  virtual ~CheckedBuilder();
  /// `opName` ("graph.conv2d") with `operands` and `attrs`; on failure the
  /// op is gone and the diagnostic has been emitted.
  virtual mlir::FailureOr<mlir::Value>
  createOp(llvm::StringRef opName, mlir::ValueRange operands,
           llvm::ArrayRef<mlir::NamedAttribute> attrs) = 0;
  /// An error at the node being built.
  virtual mlir::InFlightDiagnostic error() = 0;
  virtual mlir::OpBuilder &opBuilder() = 0;
  virtual mlir::Location location() = 0;
};

/// A CheckedBuilder that reports at `loc`.
class LocatedBuilder : public CheckedBuilder {
public:
  LocatedBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  mlir::FailureOr<mlir::Value>
  createOp(llvm::StringRef opName, mlir::ValueRange operands,
           llvm::ArrayRef<mlir::NamedAttribute> attrs) override;
  mlir::InFlightDiagnostic error() override { return mlir::emitError(loc); }
  mlir::OpBuilder &opBuilder() override { return b; }
  mlir::Location location() override { return loc; }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// Layout ops through a CheckedBuilder; the no-op ones (same shape,
/// identity permutation, whole axis, no padding) return `x` itself.
mlir::FailureOr<mlir::Value> checkedReshape(CheckedBuilder &cb, mlir::Value x,
                                            llvm::ArrayRef<int64_t> shape);
mlir::FailureOr<mlir::Value> checkedTranspose(CheckedBuilder &cb, mlir::Value x,
                                              llvm::ArrayRef<int64_t> perm);
/// Elements [start, end) with `step` along `axis`, everything elsewhere.
mlir::FailureOr<mlir::Value> checkedSliceAxis(CheckedBuilder &cb, mlir::Value x,
                                              int64_t axis, int64_t start,
                                              int64_t end, int64_t step = 1);
/// Constant padding: all begins, then all ends.
mlir::FailureOr<mlir::Value> checkedPad(CheckedBuilder &cb, mlir::Value x,
                                        llvm::ArrayRef<int64_t> pads,
                                        double value = 0.0);

/// Bounds on window attributes that keep shape arithmetic on them from
/// overflowing: dims are below 2^40, so stride * dim + (kernel - 1) *
/// dilation + pads stays below 2^62. Kernel sizes, strides and dilations
/// are at most kMaxWindowSize, pads (and groups) at most kMaxWindowPad in
/// magnitude; the builders refuse others, and an importer that computes
/// with them first (ONNX's auto_pad) checks them itself.
constexpr int64_t kMaxWindowSize = int64_t(1) << 20;
constexpr int64_t kMaxWindowPad = int64_t(1) << 40;

/// A convolution's or pooling's window over d spatial dims (each list has d
/// entries). `kernel` is pooling's (a convolution's comes from its filter);
/// `padsBegin`/`padsEnd` are zero padding (pooling: padding that never
/// wins a max and, unless countIncludePad, is not counted by a mean), or a
/// transposed convolution's crops of its full result (negative: extended
/// with zeros).
struct Window {
  llvm::SmallVector<int64_t, 3> kernel, strides, dilations, padsBegin, padsEnd;
  int64_t groups = 1;
  bool countIncludePad = false;
  size_t spatialRank() const { return strides.size(); }
};

/// Builds the 2-D convolution of an NCHW `x` and OIHW `w` with conv2d's
/// attributes (strides, pads, dilations, groups): graph.conv2d, or an
/// integer convolution.
using Conv2DEmitter = llvm::function_ref<mlir::FailureOr<mlir::Value>(
    mlir::Value x, mlir::Value w, llvm::ArrayRef<mlir::NamedAttribute> attrs)>;

/// Convolution of `x` [N, C, spatial...] with `w` [O, C/groups, K...] over
/// 1-3 spatial dims through `emit`. 3-D needs a float input.
mlir::FailureOr<mlir::Value> buildConv(CheckedBuilder &cb, mlir::Value x,
                                       mlir::Value w, const Window &win,
                                       Conv2DEmitter emit);
/// The same with graph.conv2d and an optional bias [O].
mlir::FailureOr<mlir::Value> buildConv(CheckedBuilder &cb, mlir::Value x,
                                       mlir::Value w, mlir::Value bias,
                                       const Window &win);

/// Max or average pooling of a float `x` [N, C, spatial...] over 1-3 dims.
mlir::FailureOr<mlir::Value> buildPool(CheckedBuilder &cb, mlir::Value x,
                                       bool isMax, const Window &win);

/// Transposed convolution of a float `x` [N, C, spatial...] with `w`
/// [C, O/groups, K...] and an optional bias [O] over 1-3 spatial dims: the
/// full result, (in - 1) * stride + (K - 1) * dilation + 1 long per dim,
/// loses win.padsBegin at the start and win.padsEnd at the end. Checks the
/// operands (channels, groups, bias, crops) itself.
mlir::FailureOr<mlir::Value> buildConvTranspose(CheckedBuilder &cb,
                                                mlir::Value x, mlir::Value w,
                                                mlir::Value bias,
                                                const Window &win);

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_WINDOWBUILDERS_H
