//===- ImportONNX.cpp - ONNX model -> graph dialect -----------------------===//
//
// Walks the (checked) onnx::Model in dependency order and hands each node to
// its converter from the table in ONNXOps.cpp. Graph inputs become function
// arguments (or constants when bound with --bind), initializers and Constant
// nodes become graph.constant. Every problem is a diagnostic at the node,
// input, output or initializer concerned.
//
//===----------------------------------------------------------------------===//

#include "mlc/Frontend/ONNX/ImportONNX.h"
#include "ONNXImporter.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/Common/WeightAttr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <deque>

using namespace mlir;
using mlc::onnx::Dim;

namespace mlc::frontend {

namespace {

/// Compile-time evaluation of values larger than this is not attempted: shape
/// computations are tiny, and real weights fold later in the graph pipeline.
constexpr int64_t kMaxImportFoldElements = 1 << 20;

} // namespace

Type onnxElementType(MLIRContext *ctx, int64_t onnxType) {
  switch (onnxType) {
  case onnx::Float:
    return Float32Type::get(ctx);
  case onnx::Double:
    return Float64Type::get(ctx);
  case onnx::Float16:
    return Float16Type::get(ctx);
  case onnx::BFloat16:
    return BFloat16Type::get(ctx);
  case onnx::Int8:
    return IntegerType::get(ctx, 8);
  case onnx::Int16:
    return IntegerType::get(ctx, 16);
  case onnx::Int32:
    return IntegerType::get(ctx, 32);
  case onnx::Int64:
    return IntegerType::get(ctx, 64);
  case onnx::Bool:
    return IntegerType::get(ctx, 1);
  default:
    return {};
  }
}

namespace {

ElementsAttr tensorToAttr(RankedTensorType type, const onnx::Tensor &t) {
  return makeWeightAttr(type, ArrayRef<char>(t.data.data(), t.data.size()),
                        t.name);
}

/// "[1, N, 3]": declared dims, symbolic ones by name.
std::string dimsString(ArrayRef<Dim> dims) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    s += (i ? ", " : "") + (d.value >= 0 ? std::to_string(d.value) : d.param);
  return s + "]";
}

/// Whether `shape` has the declared rank and every static declared dim.
bool matchesDims(ArrayRef<Dim> dims, ArrayRef<int64_t> shape) {
  if (dims.size() != shape.size())
    return false;
  for (auto [d, v] : llvm::zip(dims, shape))
    if (d.value >= 0 && d.value != v)
      return false;
  return true;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

} // namespace

//===----------------------------------------------------------------------===//
// The graph importer
//===----------------------------------------------------------------------===//

class ONNXGraphImporter {
public:
  ONNXGraphImporter(MLIRContext *ctx, const onnx::Model &model,
                    const ONNXImportOptions &options)
      : ctx(ctx), model(model), options(options), builder(ctx) {}

  OwningOpRef<ModuleOp> run();

  Location namedLoc(const Twine &what) {
    return NameLoc::get(StringAttr::get(ctx, what.str()),
                        FileLineColLoc::get(ctx, model.path, 0, 0));
  }
  Location nodeLoc(const onnx::Node &node) {
    return namedLoc("node '" + node.displayName + "' (" + node.opType + ")");
  }

  Value lookup(StringRef name) const { return values.lookup(name); }
  std::optional<graph::HostTensor> tryConstant(Value v);
  /// Names of the graph inputs `v` is computed from.
  SmallVector<std::string> dependentInputs(Value v);

  MLIRContext *ctx;
  const onnx::Model &model;
  const ONNXImportOptions &options;
  OpBuilder builder;
  int64_t opset = 0;

private:
  LogicalResult importInputs(SmallVectorImpl<Type> &argTypes,
                             SmallVectorImpl<std::string> &argNames);
  LogicalResult importInitializers();
  FailureOr<SmallVector<const onnx::Node *>> sortNodes();
  LogicalResult importNode(const onnx::Node &node);
  FailureOr<RankedTensorType> tensorType(const onnx::Tensor &t, Location loc,
                                         const Twine &what);
  /// The constant for `--bind name=FILE`, checked against the declared
  /// element type and (static) dims.
  FailureOr<Value> bindTensor(const std::string &name, int32_t dataType,
                              ArrayRef<onnx::Dim> dims, Location loc);

  llvm::StringMap<Value> values;
  DenseMap<Value, graph::HostTensor> constants;
  func::FuncOp func;
};

std::optional<graph::HostTensor> ONNXGraphImporter::tryConstant(Value v) {
  if (!v)
    return std::nullopt;
  auto it = constants.find(v);
  if (it != constants.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1 ||
      !isa<graph::GraphDialect>(def->getDialect()))
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getNumElements() > kMaxImportFoldElements)
    return std::nullopt;
  SmallVector<graph::HostTensor> operands;
  for (Value operand : def->getOperands()) {
    auto c = tryConstant(operand);
    if (!c)
      return std::nullopt;
    operands.push_back(std::move(*c));
  }
  auto result = graph::evaluateOp(def, operands);
  if (failed(result))
    return std::nullopt;
  constants[v] = *result;
  return *result;
}

SmallVector<std::string> ONNXGraphImporter::dependentInputs(Value v) {
  llvm::SetVector<Value> seen;
  SmallVector<Value> work = {v};
  SmallVector<std::string> names;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(cur)) {
      if (auto name =
              func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "mlc.name"))
        names.push_back(name.str());
      continue;
    }
    if (Operation *def = cur.getDefiningOp())
      for (Value operand : def->getOperands())
        work.push_back(operand);
  }
  llvm::sort(names);
  return names;
}

FailureOr<RankedTensorType> ONNXGraphImporter::tensorType(const onnx::Tensor &t,
                                                          Location loc,
                                                          const Twine &what) {
  Type elt = onnxElementType(ctx, t.dataType);
  if (!elt) {
    emitError(loc) << "unsupported dtype " << onnx::dataTypeName(t.dataType)
                   << " for " << what;
    return failure();
  }
  return RankedTensorType::get(t.dims, elt);
}

FailureOr<Value> ONNXGraphImporter::bindTensor(const std::string &name,
                                               int32_t dataType,
                                               ArrayRef<Dim> dims,
                                               Location loc) {
  const std::string &file = options.bindings.at(name);
  onnx::Tensor t;
  std::string err;
  bool ok = StringRef(file).ends_with(".pb")
                ? onnx::loadTensorFile(file, t, err)
                : (err = "--bind expects a .pb TensorProto file", false);
  if (!ok)
    return emitError(loc) << "cannot bind '" << file << "': " << err;
  if (dataType != onnx::Undefined && t.dataType != dataType)
    return emitError(loc) << "is declared " << onnx::dataTypeName(dataType)
                          << " but '" << file << "' holds "
                          << onnx::dataTypeName(t.dataType);
  if (!dims.empty() && !matchesDims(dims, t.dims))
    return emitError(loc) << "is declared with shape " << dimsString(dims)
                          << " but '" << file << "' holds "
                          << shapeString(t.dims);
  auto type = tensorType(t, loc, "'" + name + "'");
  if (failed(type))
    return failure();
  t.name = name;
  return Value(graph::ConstantOp::create(builder, loc, tensorToAttr(*type, t)));
}

LogicalResult
ONNXGraphImporter::importInputs(SmallVectorImpl<Type> &argTypes,
                                SmallVectorImpl<std::string> &argNames) {
  for (const onnx::ValueInfo &in : model.inputs) {
    Location loc = namedLoc("input '" + in.name + "'");
    if (in.name.empty())
      return emitError(loc) << "a graph input has no name";
    if (options.bindings.count(in.name)) {
      SmallVector<Dim> dims;
      if (in.isTensor && in.hasShape)
        dims.assign(in.dims.begin(), in.dims.end());
      auto v = bindTensor(in.name, in.isTensor ? in.dataType : onnx::Undefined,
                          dims, loc);
      if (failed(v))
        return failure();
      values[in.name] = *v;
      continue;
    }
    if (!in.isTensor)
      return emitError(loc)
             << "is not a tensor (sequence, map and optional inputs are not "
                "supported)";
    Type elt = onnxElementType(ctx, in.dataType);
    if (!elt)
      return emitError(loc)
             << "has unsupported dtype " << onnx::dataTypeName(in.dataType);
    SmallVector<int64_t> shape;
    auto given = options.inputShapes.find(in.name);
    if (given != options.inputShapes.end()) {
      if (in.hasShape && given->second.size() != in.dims.size())
        return emitError(loc)
               << "has rank " << in.dims.size() << " but --input-shape gives "
               << shapeString(given->second);
      for (auto [i, d] : llvm::enumerate(given->second)) {
        if (in.hasShape && in.dims[i].value >= 0 && in.dims[i].value != d)
          return emitError(loc)
                 << "has static dimension " << in.dims[i].value << " at dim "
                 << i << " but --input-shape gives " << d;
        shape.push_back(d);
      }
    } else {
      std::string example = in.name + "=";
      if (!in.hasShape)
        return emitError(loc) << "has no shape in the model; give it one with "
                                 "--input-shape "
                              << in.name << "=1x3x224x224 (for example)";
      for (auto [i, d] : llvm::enumerate(in.dims)) {
        if (d.value < 0) {
          for (auto [j, e] : llvm::enumerate(in.dims))
            example +=
                (j ? "x" : "") + (e.value >= 0 ? std::to_string(e.value) : "1");
          return emitError(loc)
                 << "has a dynamic dimension "
                 << (d.param.empty() ? "" : "'" + d.param + "' ") << "(dim "
                 << i << "); mlc compiles static shapes: pass --input-shape "
                 << example;
        }
        shape.push_back(d.value);
      }
    }
    int64_t n = 1;
    for (int64_t d : shape) {
      if (d < 0)
        return emitError(loc)
               << "has dimension " << d << " in shape " << shapeString(shape)
               << "; dimensions must not be negative";
      if (d == 0)
        continue;
      if (n > (int64_t(1) << 40) / d)
        return emitError(loc) << "has shape " << shapeString(shape)
                              << ", too many elements (more than 2^40)";
      n *= d;
    }
    argTypes.push_back(RankedTensorType::get(shape, elt));
    argNames.push_back(in.name);
  }
  auto isInput = [&](const std::string &name) {
    return llvm::any_of(model.inputs, [&](const onnx::ValueInfo &in) {
      return in.name == name;
    });
  };
  for (const auto &kv : options.bindings)
    if (!isInput(kv.first) &&
        !llvm::any_of(model.initializers, [&](const onnx::Tensor &t) {
          return t.name == kv.first;
        }))
      return emitError(namedLoc("--bind " + kv.first))
             << "the model has no graph input named '" << kv.first << "'";
  for (const auto &kv : options.inputShapes)
    if (!isInput(kv.first))
      return emitError(namedLoc("--input-shape " + kv.first))
             << "the model has no graph input named '" << kv.first << "'";
  return success();
}

LogicalResult ONNXGraphImporter::importInitializers() {
  for (const onnx::Tensor &t : model.initializers) {
    Location loc = namedLoc("initializer '" + t.name + "'");
    // An input with an initializer default can be bound like any input;
    // the bound tensor must have the initializer's type and shape.
    if (options.bindings.count(t.name)) {
      SmallVector<Dim> dims;
      for (int64_t d : t.dims)
        dims.push_back(Dim{d, ""});
      auto v = bindTensor(t.name, t.dataType, dims, loc);
      if (failed(v))
        return failure();
      values[t.name] = *v;
      continue;
    }
    auto type = tensorType(t, loc, "initializer '" + t.name + "'");
    if (failed(type))
      return failure();
    values[t.name] =
        graph::ConstantOp::create(builder, loc, tensorToAttr(*type, t));
  }
  return success();
}

FailureOr<SmallVector<const onnx::Node *>> ONNXGraphImporter::sortNodes() {
  // Producer of each value name; graph inputs and initializers are ready.
  llvm::StringMap<int64_t> producer;
  llvm::StringSet<> ready;
  for (const onnx::ValueInfo &in : model.inputs)
    ready.insert(in.name);
  for (const onnx::Tensor &t : model.initializers)
    ready.insert(t.name);
  for (auto [i, node] : llvm::enumerate(model.nodes)) {
    for (const std::string &out : node.outputs) {
      if (out.empty())
        continue;
      if (ready.count(out) || producer.count(out)) {
        const std::string &other =
            producer.count(out) ? model.nodes[producer[out]].displayName
                                : std::string("a graph input or initializer");
        return emitError(nodeLoc(node))
               << "output '" << out << "' is already produced by "
               << (producer.count(out) ? "node '" + other + "'" : other)
               << "; value names must be unique";
      }
      producer[out] = i;
    }
  }
  // Kahn's algorithm; file order among ready nodes.
  std::vector<int64_t> pending(model.nodes.size(), 0);
  std::vector<std::vector<int64_t>> users(model.nodes.size());
  for (auto [i, node] : llvm::enumerate(model.nodes)) {
    for (const std::string &in : node.inputs) {
      if (in.empty() || ready.count(in))
        continue;
      auto it = producer.find(in);
      if (it == producer.end())
        return emitError(nodeLoc(node))
               << "input '" << in << "' of node '" << node.displayName
               << "' is not produced by any node, initializer or graph input";
      ++pending[i];
      users[it->second].push_back(i);
    }
  }
  std::deque<int64_t> queue;
  for (size_t i = 0; i < model.nodes.size(); ++i)
    if (pending[i] == 0)
      queue.push_back(i);
  SmallVector<const onnx::Node *> order;
  while (!queue.empty()) {
    int64_t i = queue.front();
    queue.pop_front();
    order.push_back(&model.nodes[i]);
    for (int64_t u : users[i])
      if (--pending[u] == 0)
        queue.push_back(u);
  }
  if (order.size() != model.nodes.size()) {
    for (size_t i = 0; i < model.nodes.size(); ++i)
      if (pending[i] > 0)
        return emitError(nodeLoc(model.nodes[i]))
               << "the graph has a cycle through node '"
               << model.nodes[i].displayName << "'";
  }
  return order;
}

LogicalResult ONNXGraphImporter::importNode(const onnx::Node &node) {
  Location loc = nodeLoc(node);
  std::string domain = node.domain;
  int64_t nodeOpset = opset;
  if (!domain.empty()) {
    auto it = model.opsets.find(domain);
    nodeOpset = it == model.opsets.end() ? 0 : it->second;
    return emitError(loc) << "unsupported ONNX operator '" << node.opType
                          << "' (domain '" << domain << "', opset " << nodeOpset
                          << ") at node '" << node.displayName << "'";
  }
  if (opset == 0)
    return emitError(loc) << "node '" << node.displayName << "' uses ai.onnx "
                          << "operator '" << node.opType
                          << "' but the model imports no ai.onnx opset";
  const OpConverter *conv = nullptr;
  for (const OpConverter &c : getONNXConverters())
    if (node.opType == c.opType && c.minOpset <= opset && opset <= c.maxOpset)
      conv = &c;
  if (!conv)
    return emitError(loc) << "unsupported ONNX operator '" << node.opType
                          << "' (opset " << opset << ") at node '"
                          << node.displayName << "'";
  // Refuse attributes the converter does not know rather than ignore them.
  SmallVector<StringRef> known;
  StringRef(conv->attributes).split(known, ',', -1, false);
  for (const onnx::Attribute &a : node.attributes) {
    if (a.name == "consumed_inputs") // a pre-opset-6 hint, meaningless here
      continue;
    if (!llvm::is_contained(known, a.name))
      return emitError(loc)
             << "unsupported attribute '" << a.name << "' in ONNX operator '"
             << node.opType << "' (opset " << opset << ") at node '"
             << node.displayName << "'";
    if (a.kind == onnx::Attribute::Graph)
      return emitError(loc)
             << "unsupported subgraph attribute '" << a.name
             << "' in ONNX operator '" << node.opType << "' (opset " << opset
             << ") at node '" << node.displayName << "'";
  }
  for (unsigned i = 0; i < conv->minInputs; ++i)
    if (i >= node.inputs.size() || node.inputs[i].empty())
      return emitError(loc)
             << "node '" << node.displayName << "' (" << node.opType
             << ") needs at least " << conv->minInputs << " input"
             << (conv->minInputs == 1 ? "" : "s") << ", input #" << i
             << " is missing";
  for (auto [i, name] : llvm::enumerate(node.inputs))
    if (!name.empty() && !values.count(name))
      return emitError(loc) << "input '" << name << "' of node '"
                            << node.displayName << "' is not defined";

  NodeContext nc(*this, node, opset, loc);
  if (failed(conv->convert(nc)))
    return failure();
  for (auto [i, name] : llvm::enumerate(node.outputs)) {
    if (name.empty())
      continue;
    Value v = nc.getOutputs()[i];
    if (!v)
      return nc.unsupported("output #" + Twine(i) + " ('" + name + "')");
    values[name] = v;
  }
  return success();
}

OwningOpRef<ModuleOp> ONNXGraphImporter::run() {
  Location fileLoc = FileLineColLoc::get(ctx, model.path, 0, 0);
  // Without an ai.onnx opset import, opset stays 0 and only nodes of other
  // domains can appear (each is refused by name).
  auto opsetIt = model.opsets.find("");
  opset = opsetIt == model.opsets.end() ? 0 : opsetIt->second;
  if (opsetIt != model.opsets.end() && (opset < 1 || opset > kMaxONNXOpset)) {
    emitError(fileLoc) << "unsupported ai.onnx opset " << opset
                       << " (mlc supports opsets 1 to " << kMaxONNXOpset << ")";
    return nullptr;
  }
  if (model.outputs.empty()) {
    emitError(fileLoc) << "the graph has no outputs";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  std::string name = model.graphName.empty() ? "onnx" : model.graphName;
  (*module)->setAttr("mlc.model_name", builder.getStringAttr(name));
  builder.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  if (failed(importInputs(argTypes, argNames)))
    return nullptr;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    BlockArgument arg =
        entry->addArgument(type, namedLoc("input '" + argNames[i] + "'"));
    values[argNames[i]] = arg;
    // A zero-size input has exactly one possible value; use it as a
    // constant so an empty `axes` or `scales` input configures its node.
    auto tt = cast<RankedTensorType>(type);
    if (tt.getNumElements() == 0)
      values[argNames[i]] = graph::ConstantOp::create(
          builder, arg.getLoc(),
          DenseElementsAttr::get(tt, ArrayRef<Attribute>()));
  }
  func.setFunctionType(builder.getFunctionType(argTypes, {}));
  for (auto [i, name] : llvm::enumerate(argNames))
    func.setArgAttr(i, "mlc.name", builder.getStringAttr(name));
  if (failed(importInitializers()))
    return nullptr;

  auto order = sortNodes();
  if (failed(order))
    return nullptr;
  for (const onnx::Node *node : *order)
    if (failed(importNode(*node)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfo &out : model.outputs) {
    Location loc = namedLoc("output '" + out.name + "'");
    Value v = values.lookup(out.name);
    if (!v) {
      emitError(loc) << "is not produced by any node, initializer or input";
      return nullptr;
    }
    auto type = cast<RankedTensorType>(v.getType());
    if (out.isTensor && out.dataType != onnx::Undefined) {
      Type declared = onnxElementType(ctx, out.dataType);
      if (declared != type.getElementType()) {
        emitError(loc) << "is declared " << onnx::dataTypeName(out.dataType)
                       << " but computes " << type.getElementType();
        return nullptr;
      }
    }
    if (out.isTensor && out.hasShape) {
      if (!matchesDims(out.dims, type.getShape())) {
        emitError(loc) << "is declared with shape " << dimsString(out.dims)
                       << " but computes " << shapeString(type.getShape());
        return nullptr;
      }
    }
    results.push_back(v);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [i, out] : llvm::enumerate(model.outputs))
    func.setResultAttr(i, "mlc.name", builder.getStringAttr(out.name));

  // Drop what only fed compile-time computations (shape chains).
  SmallVector<Operation *> ops;
  for (Operation &op : entry->getOperations())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(ONNXGraphImporter &importer, const onnx::Node &node,
                         int64_t opset, Location loc)
    : node(node), opset(opset), b(importer.builder), ctx(importer.ctx),
      loc(loc), importer(importer), outputs(node.outputs.size()) {}

Value NodeContext::input(unsigned i) const {
  return hasInput(i) ? importer.lookup(node.inputs[i]) : Value();
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

FailureOr<SmallVector<Value>>
NodeContext::emitMulti(StringRef name, ValueRange operands,
                       ArrayRef<NamedAttribute> attrs, unsigned numResults) {
  for (auto [i, v] : llvm::enumerate(operands))
    if (!v) {
      error() << "missing input for operand #" << i << " of graph." << name;
      return failure();
    }
  OperationState state(loc, "graph." + name.str());
  if (!state.name.getRegisteredInfo()) {
    (void)unsupported("graph op 'graph." + name + "' (not available)");
    return failure();
  }
  state.addOperands(operands);
  state.addAttributes(attrs);
  for (unsigned i = 0; i < numResults; ++i)
    state.addTypes(NoneType::get(ctx)); // set by inference below
  Operation *op = b.create(state);
  if (failed(graph::inferAndSetResultTypes(op)) || failed(verify(op))) {
    op->erase();
    return failure();
  }
  for (Type t : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(t);
    if (type.getNumElements() == 0) {
      op->erase();
      (void)unsupported("zero-size result " + shapeString(type.getShape()));
      return failure();
    }
  }
  return SmallVector<Value>(op->getResults());
}

FailureOr<Value> NodeContext::emit(StringRef name, ValueRange operands,
                                   ArrayRef<NamedAttribute> attrs) {
  auto r = emitMulti(name, operands, attrs, 1);
  if (failed(r))
    return failure();
  return (*r)[0];
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
      v.push_back(APInt(width, int64_t(d), /*isSigned=*/true));
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
    return convert(t.values<uint8_t>());
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

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> importONNX(MLIRContext *ctx, StringRef path,
                                 const ONNXImportOptions &options) {
  ctx->loadDialect<graph::GraphDialect, func::FuncDialect>();
  onnx::Model model;
  std::string error;
  if (!onnx::loadModel(path.str(), model, error)) {
    emitError(FileLineColLoc::get(ctx, path, 0, 0)) << error;
    return nullptr;
  }
  return ONNXGraphImporter(ctx, model, options).run();
}

void printSupportedONNXOps(raw_ostream &os) {
  os << "# Supported ONNX operators\n\n"
     << "Generated by `mlc-compile --list-onnx-ops` from the importer's "
        "converter table\n(lib/Frontend/ONNXOps.cpp); do not edit by hand. "
        "Opsets are those of the\ndefault `ai.onnx` domain that mlc accepts "
        "(1 to "
     << kMaxONNXOpset
     << "). Attributes not listed for an operator are refused\nwith an "
        "error rather than ignored. Every operator accepts only the element "
        "types\nthe graph dialect has (see docs/compiler.md).\n\n"
     << "| operator | opsets | attributes | limits |\n"
     << "|---|---|---|---|\n";
  SmallVector<const OpConverter *> rows;
  for (const OpConverter &c : getONNXConverters())
    rows.push_back(&c);
  llvm::stable_sort(rows, [](const OpConverter *a, const OpConverter *b) {
    return StringRef(a->opType) < StringRef(b->opType);
  });
  for (const OpConverter *c : rows) {
    std::string attrs = c->attributes;
    for (char &ch : attrs)
      if (ch == ',')
        ch = ' ';
    os << "| " << c->opType << " | " << c->minOpset << "-"
       << std::min(c->maxOpset, kMaxONNXOpset) << " | "
       << (attrs.empty() ? "" : attrs) << " | " << c->limits << " |\n";
  }
  os << "\n" << rows.size() << " table entries.\n";
}

bool parseShapeSpec(StringRef text, std::vector<int64_t> &shape) {
  shape.clear();
  if (text.empty())
    return true;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d <= 0)
      return false;
    shape.push_back(d);
  }
  return true;
}

} // namespace mlc::frontend
