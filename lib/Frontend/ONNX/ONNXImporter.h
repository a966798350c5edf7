//===- ONNXImporter.h - shared by the ONNX importer's files -----*- C++ -*-===//
//
// NodeContext is what an operator converter sees: the node's inputs as graph
// values, typed attribute access with per-opset defaults, builders for graph
// ops (by op class, result types inferred) and constants, and access to
// compile-time constant inputs (folded through the reference evaluator, so
// Shape -> Gather -> Concat -> Reshape chains resolve at import time).
//
//===----------------------------------------------------------------------===//
#ifndef MLC_LIB_FRONTEND_ONNX_ONNXIMPORTER_H
#define MLC_LIB_FRONTEND_ONNX_ONNXIMPORTER_H

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/WindowBuilders.h"
#include "mlc/Frontend/ONNX/ONNXModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace mlc::frontend {

class ONNXGraphImporter;
class NodeContext;

using ConvertFn = mlir::LogicalResult (*)(NodeContext &);

/// An ONNX sequence, folded away at import: its tensors are graph values
/// known by position (sequence ops, loop-carried lists); graphs, model
/// inputs and outputs hold tensors only.
struct Sequence {
  mlir::Type elementType; // of the tensors, from SequenceEmpty's dtype too
  llvm::SmallVector<mlir::Value> items;
};

/// A value bound to a subgraph input or returned by one: a tensor, or a
/// sequence when `tensor` is null.
struct ONNXValue {
  mlir::Value tensor;
  Sequence sequence;
  ONNXValue(mlir::Value v = {}) : tensor(v) {}
  ONNXValue(Sequence s) : sequence(std::move(s)) {}
  bool isSequence() const { return !tensor; }
};

/// One row of the converter table: an operator over a range of ai.onnx
/// opsets, the attributes the converter understands (any other attribute on
/// a node is refused rather than ignored), and its limits for the docs.
struct OpConverter {
  const char *opType;
  int64_t minOpset;
  int64_t maxOpset;
  unsigned minInputs;     // inputs that must be present
  const char *attributes; // comma separated
  ConvertFn convert;
  const char *limits;
  /// The operator's domain; "" is ai.onnx, whose opsets the others' ranges
  /// are not.
  const char *domain = "";
};

llvm::ArrayRef<OpConverter> getONNXConverters();

/// The MLIR element type of an ONNX TensorProto data type; null for types
/// graph tensors cannot hold (strings, complex). Unsigned integers are the
/// builtin ui8 to ui64.
mlir::Type onnxElementType(mlir::MLIRContext *ctx, int64_t onnxType);

/// "[1, 3, 224, 224]", for messages.
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// Highest ai.onnx opset the importer handles.
constexpr int64_t kMaxONNXOpset = 17;

/// What a converter sees of its node; a graph::CheckedBuilder, so the
/// graph-level builders (WindowBuilders.h) report at the node.
class NodeContext : public graph::CheckedBuilder {
public:
  NodeContext(ONNXGraphImporter &importer, const onnx::Node &node,
              int64_t opset, mlir::Location loc);

  const onnx::Node &node;
  const int64_t opset;
  mlir::OpBuilder &b;
  mlir::MLIRContext *ctx;
  mlir::Location loc;

  // Inputs and outputs.
  unsigned numInputs() const { return node.inputs.size(); }
  bool hasInput(unsigned i) const {
    return i < node.inputs.size() && !node.inputs[i].empty();
  }
  /// The value of input i; null when omitted.
  mlir::Value input(unsigned i) const;
  /// Makes input(i) return `v` for the converter (old opsets' operand
  /// conventions rewritten before the shared converter runs).
  void replaceInput(unsigned i, mlir::Value v);
  unsigned numOutputs() const { return node.outputs.size(); }
  bool wantsOutput(unsigned i) const {
    return i < node.outputs.size() && !node.outputs[i].empty();
  }
  void setOutput(unsigned i, mlir::Value v) { outputs[i] = v; }
  void setOutput(unsigned i, ONNXValue v);
  llvm::ArrayRef<ONNXValue> getOutputs() const { return outputs; }

  // Sequence inputs (only the operators that take sequences see them).
  bool isSequence(unsigned i) const;
  /// Input i, which must be a sequence.
  mlir::FailureOr<Sequence> sequenceInput(unsigned i);
  /// Input i as a tensor or a sequence.
  ONNXValue anyInput(unsigned i) const;

  // Attributes, with defaults; a missing attribute without default and an
  // attribute of the wrong kind are errors at the node.
  bool hasAttr(llvm::StringRef name) const {
    return node.findAttribute(name.str());
  }
  mlir::FailureOr<int64_t> getInt(llvm::StringRef name,
                                  std::optional<int64_t> def = std::nullopt);
  mlir::FailureOr<float> getFloat(llvm::StringRef name,
                                  std::optional<float> def = std::nullopt);
  mlir::FailureOr<std::string>
  getString(llvm::StringRef name,
            std::optional<std::string> def = std::nullopt);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getInts(llvm::StringRef name,
          std::optional<llvm::SmallVector<int64_t>> def = std::nullopt);
  mlir::FailureOr<llvm::SmallVector<float>>
  getFloats(llvm::StringRef name,
            std::optional<llvm::SmallVector<float>> def = std::nullopt);
  const onnx::Attribute *getAttr(llvm::StringRef name) const {
    return node.findAttribute(name.str());
  }
  /// A required subgraph attribute (If's branches, Loop's body).
  mlir::FailureOr<const onnx::Graph *> getGraph(llvm::StringRef name);
  /// Imports `graph` inline with its inputs bound to `inputs`; returns its
  /// outputs. `what` names it in errors ("the then_branch of If 'x'").
  mlir::FailureOr<llvm::SmallVector<ONNXValue>>
  importSubgraph(const onnx::Graph &graph, llvm::ArrayRef<ONNXValue> inputs,
                 const llvm::Twine &what);

  // Diagnostics at the node.
  mlir::InFlightDiagnostic error() override;
  /// "unsupported <what> in ONNX operator 'X' (opset N) at node 'name'".
  mlir::LogicalResult unsupported(const llvm::Twine &what);

  // Building graph ops. `emit<OpTy>` creates the op with a placeholder
  // result type, infers the real one and verifies the op; failures are
  // reported at the node. (The ODS builders that infer types would abort on
  // operands whose types do not fit, which ONNX models can have.)
  mlir::FailureOr<mlir::Value>
  createOp(llvm::StringRef opName, mlir::ValueRange operands,
           llvm::ArrayRef<mlir::NamedAttribute> attrs) override;
  mlir::OpBuilder &opBuilder() override { return b; }
  mlir::Location location() override { return loc; }
  template <typename OpTy>
  mlir::FailureOr<mlir::Value>
  emit(mlir::ValueRange operands,
       llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    if (mlir::failed(checkOperands(OpTy::getOperationName(), operands)))
      return mlir::failure();
    mlir::Type placeholder = mlir::NoneType::get(ctx);
    OpTy op = OpTy::create(b, loc, llvm::ArrayRef<mlir::Type>(placeholder),
                           operands, attrs);
    return finishOp(op.getOperation());
  }
  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
    return b.getNamedAttr(name, value);
  }
  mlir::NamedAttribute i64Attr(llvm::StringRef name, int64_t v) {
    return attr(name, b.getI64IntegerAttr(v));
  }
  mlir::NamedAttribute boolAttr(llvm::StringRef name, bool v) {
    return attr(name, b.getBoolAttr(v));
  }
  mlir::NamedAttribute arrayAttr(llvm::StringRef name,
                                 llvm::ArrayRef<int64_t> v) {
    return attr(name, b.getDenseI64ArrayAttr(v));
  }

  /// A constant from a host tensor, or of `type` filled from doubles.
  mlir::Value constant(const graph::HostTensor &t);
  mlir::Value constant(mlir::RankedTensorType type,
                       llvm::ArrayRef<double> values);
  /// The one value of a zero-size type (a tensor with a 0 dim): an empty
  /// constant, so that no kernel computes it and the graph folds around it.
  mlir::Value empty(llvm::ArrayRef<int64_t> shape, mlir::Type elementType);
  /// A rank-0 constant of element type `elementType`.
  mlir::Value scalar(mlir::Type elementType, double v);
  /// A rank-0 constant with the element type of `like`.
  mlir::Value scalarLike(mlir::Value like, double v);
  mlir::Value i64Constant(llvm::ArrayRef<int64_t> values,
                          llvm::ArrayRef<int64_t> shape);

  // Compile-time constants.
  std::optional<graph::HostTensor> tryConstant(mlir::Value v);
  /// The value of input i, which must be a compile-time constant; the
  /// error names the graph inputs it depends on and suggests --bind.
  mlir::FailureOr<graph::HostTensor> constantInput(unsigned i,
                                                   llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  constantInts(unsigned i, llvm::StringRef what);
  mlir::FailureOr<llvm::SmallVector<double>>
  constantFloats(unsigned i, llvm::StringRef what);

  // Types.
  static mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  static int64_t rankOf(mlir::Value v) { return typeOf(v).getRank(); }
  static llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
    return typeOf(v).getShape();
  }
  static mlir::Type elementTypeOf(mlir::Value v) {
    return typeOf(v).getElementType();
  }
  /// Normalizes a possibly negative axis against `rank`.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                         llvm::StringRef what = "axis");

private:
  /// Fails at the node if an operand is missing (an omitted ONNX input).
  mlir::LogicalResult checkOperands(llvm::StringRef opName,
                                    mlir::ValueRange operands);
  /// Infers and checks the result type of a single-result op `emit` just
  /// created; erases the op on failure.
  mlir::FailureOr<mlir::Value> finishOp(mlir::Operation *op);

  ONNXGraphImporter &importer;
  llvm::SmallVector<ONNXValue> outputs;
  llvm::SmallVector<mlir::Value> replacedInputs;
};

} // namespace mlc::frontend

#endif // MLC_LIB_FRONTEND_ONNX_ONNXIMPORTER_H
