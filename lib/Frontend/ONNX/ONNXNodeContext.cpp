//===- ONNXNodeContext.cpp - what an ONNX converter sees ------------------===//
//
// NodeContext: a node's inputs, its typed attributes with defaults, graph op
// creation with inferred result types, constants, and compile-time constant
// inputs, all with errors at the node.
//
//===----------------------------------------------------------------------===//

#include "ONNXGraphImporter.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace mlc::frontend {

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(ONNXGraphImporter &importer, const onnx::Node &node,
                         int64_t opset, Location loc)
    : node(node), opset(opset), b(importer.builder), ctx(importer.ctx),
      loc(loc), importer(importer), outputs(node.outputs.size()) {}

Value NodeContext::input(unsigned i) const {
  if (i < replacedInputs.size() && replacedInputs[i])
    return replacedInputs[i];
  return hasInput(i) ? importer.lookup(node.inputs[i]) : Value();
}

void NodeContext::replaceInput(unsigned i, Value v) {
  if (replacedInputs.size() <= i)
    replacedInputs.resize(i + 1);
  replacedInputs[i] = v;
}

bool NodeContext::isSequence(unsigned i) const {
  return hasInput(i) && importer.lookupSequence(node.inputs[i]);
}

FailureOr<Sequence> NodeContext::sequenceInput(unsigned i) {
  const Sequence *s =
      hasInput(i) ? importer.lookupSequence(node.inputs[i]) : nullptr;
  if (!s) {
    error() << "input #" << i << " must be a sequence";
    return failure();
  }
  return *s;
}

ONNXValue NodeContext::anyInput(unsigned i) const {
  if (const Sequence *s =
          hasInput(i) ? importer.lookupSequence(node.inputs[i]) : nullptr)
    return *s;
  return input(i);
}

void NodeContext::setOutput(unsigned i, ONNXValue v) {
  outputs[i] = std::move(v);
}

InFlightDiagnostic NodeContext::error() { return emitError(loc); }

LogicalResult NodeContext::unsupported(const Twine &what) {
  return emitError(loc) << "unsupported " << what << " in ONNX operator '"
                        << node.opType << "' (opset " << opset << ") at node '"
                        << node.displayName << "'";
}

namespace {
const char *kindName(onnx::Attribute::Kind k) {
  switch (k) {
  case onnx::Attribute::Float:
    return "a float";
  case onnx::Attribute::Int:
    return "an integer";
  case onnx::Attribute::String:
    return "a string";
  case onnx::Attribute::Tensor:
    return "a tensor";
  case onnx::Attribute::Graph:
    return "a graph";
  case onnx::Attribute::Floats:
    return "a list of floats";
  case onnx::Attribute::Ints:
    return "a list of integers";
  case onnx::Attribute::Strings:
    return "a list of strings";
  default:
    return "an unsupported kind";
  }
}
} // namespace

/// Shared body of the typed attribute getters.
template <typename T, typename Get>
static FailureOr<T> getAttrAs(NodeContext &n, StringRef name,
                              std::optional<T> def, onnx::Attribute::Kind kind,
                              Get get) {
  const onnx::Attribute *a = n.getAttr(name);
  if (!a) {
    if (def)
      return *def;
    n.error() << "missing required attribute '" << name << "'";
    return failure();
  }
  if (a->kind != kind) {
    n.error() << "attribute '" << name << "' must be " << kindName(kind)
              << ", got " << kindName(a->kind);
    return failure();
  }
  return T(get(*a));
}

FailureOr<int64_t> NodeContext::getInt(StringRef name,
                                       std::optional<int64_t> def) {
  return getAttrAs<int64_t>(*this, name, def, onnx::Attribute::Int,
                            [](const onnx::Attribute &a) { return a.i; });
}
FailureOr<float> NodeContext::getFloat(StringRef name,
                                       std::optional<float> def) {
  return getAttrAs<float>(*this, name, def, onnx::Attribute::Float,
                          [](const onnx::Attribute &a) { return a.f; });
}
FailureOr<std::string> NodeContext::getString(StringRef name,
                                              std::optional<std::string> def) {
  return getAttrAs<std::string>(*this, name, def, onnx::Attribute::String,
                                [](const onnx::Attribute &a) { return a.s; });
}
FailureOr<SmallVector<int64_t>>
NodeContext::getInts(StringRef name, std::optional<SmallVector<int64_t>> def) {
  return getAttrAs<SmallVector<int64_t>>(
      *this, name, def, onnx::Attribute::Ints, [](const onnx::Attribute &a) {
        return SmallVector<int64_t>(a.ints.begin(), a.ints.end());
      });
}
FailureOr<SmallVector<float>>
NodeContext::getFloats(StringRef name, std::optional<SmallVector<float>> def) {
  return getAttrAs<SmallVector<float>>(
      *this, name, def, onnx::Attribute::Floats, [](const onnx::Attribute &a) {
        return SmallVector<float>(a.floats.begin(), a.floats.end());
      });
}

FailureOr<const onnx::Graph *> NodeContext::getGraph(StringRef name) {
  return getAttrAs<const onnx::Graph *>(
      *this, name, std::nullopt, onnx::Attribute::Graph,
      [](const onnx::Attribute &a) { return a.g.get(); });
}

FailureOr<SmallVector<ONNXValue>>
NodeContext::importSubgraph(const onnx::Graph &graph,
                            ArrayRef<ONNXValue> inputs, const Twine &what) {
  return importer.importSubgraph(graph, inputs, loc, what.str());
}

LogicalResult NodeContext::checkOperands(StringRef opName,
                                         ValueRange operands) {
  for (auto [i, v] : llvm::enumerate(operands))
    if (!v)
      return error() << "missing input for operand #" << i << " of " << opName;
  // Unsigned integers: only these graph ops take them (with unsigned
  // semantics where it matters); the rest would need an unsigned form.
  static constexpr llvm::StringLiteral takesUnsigned[] = {
      "graph.quantize",      "graph.dequantize",  "graph.cast",
      "graph.reshape",       "graph.transpose",   "graph.slice",
      "graph.pad",           "graph.add",         "graph.sub",
      "graph.mul",           "graph.div",         "graph.mod",
      "graph.max",           "graph.min",         "graph.compare",
      "graph.shift_left",    "graph.shift_right", "graph.matmul_integer",
      "graph.conv2d_integer"};
  if (!llvm::is_contained(takesUnsigned, opName))
    for (Value v : operands)
      if (auto t = dyn_cast<IntegerType>(elementTypeOf(v)); t && t.isUnsigned())
        return unsupported(
            "dtype UINT" + Twine(t.getWidth()) +
            " (unsigned integers go through casts, layout ops, "
            "add/sub/mul/div/mod, max/min, comparisons, shifts and the "
            "quantized ops)");
  return success();
}

FailureOr<Value> NodeContext::createOp(StringRef opName, ValueRange operands,
                                       ArrayRef<NamedAttribute> attrs) {
  if (failed(checkOperands(opName, operands)))
    return failure();
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(NoneType::get(ctx)); // set by finishOp's inference
  return finishOp(b.create(state));
}

FailureOr<Value> NodeContext::finishOp(Operation *op) {
  if (failed(graph::inferAndSetResultTypes(op)) || failed(verify(op))) {
    op->erase();
    return failure();
  }
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getNumElements() == 0 && !isa<graph::ConstantOp>(op)) {
    op->erase();
    return empty(type.getShape(), type.getElementType());
  }
  return op->getResult(0);
}

Value NodeContext::empty(ArrayRef<int64_t> shape, Type elementType) {
  auto type = RankedTensorType::get(shape, elementType);
  assert(type.getNumElements() == 0 && "not a zero-size type");
  return graph::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<Attribute>()));
}

Value NodeContext::constant(const graph::HostTensor &t) {
  return graph::ConstantOp::create(b, loc, graph::toElementsAttr(ctx, t));
}

Value NodeContext::constant(RankedTensorType type, ArrayRef<double> values) {
  Type elt = type.getElementType();
  DenseElementsAttr attr;
  if (auto ft = dyn_cast<FloatType>(elt)) {
    SmallVector<APFloat> v;
    for (double d : values) {
      APFloat f(d);
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      v.push_back(f);
    }
    attr = DenseElementsAttr::get(type, v);
  } else if (elt.isInteger(1)) {
    SmallVector<bool> v;
    for (double d : values)
      v.push_back(d != 0);
    attr = DenseElementsAttr::get(type, v);
  } else {
    unsigned width = elt.getIntOrFloatBitWidth();
    SmallVector<APInt> v;
    for (double d : values)
      v.push_back(
          APInt(width, int64_t(d), /*isSigned=*/!elt.isUnsignedInteger()));
    attr = DenseElementsAttr::get(type, v);
  }
  return graph::ConstantOp::create(b, loc, attr);
}

Value NodeContext::scalar(Type elementType, double v) {
  return constant(RankedTensorType::get({}, elementType), {v});
}

Value NodeContext::scalarLike(Value like, double v) {
  return scalar(elementTypeOf(like), v);
}

Value NodeContext::i64Constant(ArrayRef<int64_t> values,
                               ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, b.getI64Type());
  return graph::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

std::optional<graph::HostTensor> NodeContext::tryConstant(Value v) {
  return importer.tryConstant(v);
}

FailureOr<graph::HostTensor> NodeContext::constantInput(unsigned i,
                                                        StringRef what) {
  Value v = input(i);
  if (!v) {
    error() << "missing input #" << i << " (" << what << ")";
    return failure();
  }
  if (auto c = tryConstant(v))
    return *c;
  auto diag = error();
  diag << "input #" << i << " (" << what << ") must be a compile-time "
       << "constant for mlc's static shapes";
  SmallVector<std::string> deps = importer.dependentInputs(v);
  if (!deps.empty()) {
    diag << ", but it depends on graph input";
    diag << (deps.size() > 1 ? "s " : " ");
    for (auto [k, d] : llvm::enumerate(deps))
      diag << (k ? ", " : "") << "'" << d << "'";
    diag << "; freeze "
         << (deps.size() > 1 ? "them at compile time with " : "it with ");
    for (auto [k, d] : llvm::enumerate(deps))
      diag << (k ? " " : "") << "--bind " << d << "=FILE";
    diag << " (a .pb TensorProto)";
  }
  return failure();
}

/// The elements of a constant as T; nullopt for kinds `allowed` excludes.
template <typename T>
static std::optional<SmallVector<T>>
elementsAs(const graph::HostTensor &t,
           std::initializer_list<graph::ElementKind> allowed) {
  if (!llvm::is_contained(allowed, t.getKind()))
    return std::nullopt;
  auto convert = [](auto values) {
    return SmallVector<T>(llvm::map_range(values, [](auto v) { return T(v); }));
  };
  switch (t.getKind()) {
  case graph::ElementKind::F32:
    return convert(t.values<float>());
  case graph::ElementKind::I64:
    return convert(t.values<int64_t>());
  case graph::ElementKind::I32:
    return convert(t.values<int32_t>());
  case graph::ElementKind::I1:
  case graph::ElementKind::U8:
    return convert(t.values<uint8_t>());
  case graph::ElementKind::I8:
    return convert(t.values<int8_t>());
  }
  return std::nullopt;
}

FailureOr<SmallVector<int64_t>> NodeContext::constantInts(unsigned i,
                                                          StringRef what) {
  auto t = constantInput(i, what);
  if (failed(t))
    return failure();
  using graph::ElementKind;
  if (auto v = elementsAs<int64_t>(
          *t, {ElementKind::I64, ElementKind::I32, ElementKind::I1}))
    return *v;
  error() << "input #" << i << " (" << what << ") must be int64, int32 or bool";
  return failure();
}

FailureOr<SmallVector<double>> NodeContext::constantFloats(unsigned i,
                                                           StringRef what) {
  auto t = constantInput(i, what);
  if (failed(t))
    return failure();
  using graph::ElementKind;
  if (auto v = elementsAs<double>(
          *t, {ElementKind::F32, ElementKind::I64, ElementKind::I32}))
    return *v;
  error() << "input #" << i << " (" << what << ") must be numeric";
  return failure();
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                              StringRef what) {
  if (axis < -rank || axis >= rank) {
    error() << what << " " << axis << " is out of range for rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

} // namespace mlc::frontend
