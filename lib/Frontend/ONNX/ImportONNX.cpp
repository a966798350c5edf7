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
#include "ONNXGraphImporter.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/Common/WeightAttr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
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
  // Unsigned integers: the ops that take them (NodeContext::checkOperands)
  // give them unsigned semantics.
  case onnx::UInt8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case onnx::UInt16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case onnx::UInt32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case onnx::UInt64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
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

} // namespace

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// The graph importer
//===----------------------------------------------------------------------===//

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
    if (in.dataType == onnx::Undefined)
      return emitError(loc) << "has no declared type";
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
  for (onnx::Tensor &t : model.initializers) {
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
    // The weight's bytes move into the blob: no second copy of the weights.
    values[t.name] = graph::ConstantOp::create(
        builder, loc, makeWeightAttr(*type, std::move(t.data), t.name));
  }
  return success();
}

FailureOr<SmallVector<const onnx::Node *>>
ONNXGraphImporter::sortNodes(ArrayRef<onnx::Node> nodes) {
  // Producer of each value name; what `values` holds (graph inputs,
  // initializers, enclosing graphs' values) is ready.
  llvm::StringMap<int64_t> producer;
  for (auto [i, node] : llvm::enumerate(nodes)) {
    for (const std::string &out : node.outputs) {
      if (out.empty())
        continue;
      if (isDefined(out) || producer.count(out)) {
        const std::string &other =
            producer.count(out) ? nodes[producer[out]].displayName
                                : std::string("a graph input or initializer");
        return emitError(nodeLoc(node))
               << "output '" << out << "' is already produced by "
               << (producer.count(out) ? "node '" + other + "'" : other)
               << "; value names must be unique";
      }
      producer[out] = i;
    }
  }
  // Kahn's algorithm; file order among ready nodes. A node's subgraphs
  // read values of this graph by name: those count as its inputs too.
  std::vector<int64_t> pending(nodes.size(), 0);
  std::vector<std::vector<int64_t>> users(nodes.size());
  for (auto [i, node] : llvm::enumerate(nodes)) {
    std::vector<std::string> implicit;
    for (const onnx::Attribute &a : node.attributes)
      if (a.g)
        onnx::collectOuterNames(*a.g, implicit);
    for (const std::string &in :
         llvm::concat<const std::string>(node.inputs, implicit)) {
      if (in.empty() || isDefined(in))
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
  for (size_t i = 0; i < nodes.size(); ++i)
    if (pending[i] == 0)
      queue.push_back(i);
  SmallVector<const onnx::Node *> order;
  while (!queue.empty()) {
    int64_t i = queue.front();
    queue.pop_front();
    order.push_back(&nodes[i]);
    for (int64_t u : users[i])
      if (--pending[u] == 0)
        queue.push_back(u);
  }
  if (order.size() != nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i)
      if (pending[i] > 0)
        return emitError(nodeLoc(nodes[i]))
               << "the graph has a cycle through node '" << nodes[i].displayName
               << "'";
  }
  return order;
}

FailureOr<SmallVector<ONNXValue>>
ONNXGraphImporter::importSubgraph(const onnx::Graph &graph,
                                  ArrayRef<ONNXValue> inputs, Location loc,
                                  StringRef what) {
  if (graph.inputs.size() != inputs.size())
    return emitError(loc) << what << " takes " << graph.inputs.size()
                          << " inputs, the operator passes " << inputs.size();
  // The subgraph's names live until it is imported: what they named before
  // is put back afterwards, so a loop body can be imported again. Only the
  // names the subgraph defines are saved, not the enclosing graph's maps.
  struct Saved {
    std::string name;
    Value value;
    std::optional<Sequence> sequence;
  };
  std::vector<Saved> saved;
  auto save = [&](const std::string &name) {
    auto seq = sequences.find(name);
    saved.push_back(
        {name, values.lookup(name),
         seq == sequences.end() ? std::nullopt : std::optional(seq->second)});
  };
  for (const onnx::ValueInfo &in : graph.inputs)
    save(in.name);
  for (const onnx::Tensor &t : graph.initializers)
    save(t.name);
  for (const onnx::Node &node : graph.nodes)
    for (const std::string &out : node.outputs)
      save(out);
  llvm::scope_exit restore([&] {
    // In reverse, so a name saved twice ends with its oldest meaning.
    for (const Saved &s : llvm::reverse(saved)) {
      values.erase(s.name);
      sequences.erase(s.name);
      if (s.value)
        values[s.name] = s.value;
      if (s.sequence)
        sequences[s.name] = *s.sequence;
    }
  });
  for (auto [info, v] : llvm::zip(graph.inputs, inputs)) {
    values.erase(info.name);
    sequences.erase(info.name);
    if (v.isSequence()) {
      if (info.isTensor && info.dataType != onnx::Undefined)
        return emitError(loc) << what << " input '" << info.name
                              << "' is a tensor but gets a sequence";
      sequences[info.name] = v.sequence;
      continue;
    }
    auto type = cast<RankedTensorType>(v.tensor.getType());
    if (!info.isTensor)
      return emitError(loc) << what << " input '" << info.name
                            << "' is not a tensor but gets one";
    if (info.dataType != onnx::Undefined &&
        onnxElementType(ctx, info.dataType) != type.getElementType())
      return emitError(loc)
             << what << " input '" << info.name << "' is declared "
             << onnx::dataTypeName(info.dataType) << " but gets "
             << type.getElementType();
    if (info.hasShape && !matchesDims(info.dims, type.getShape()))
      return emitError(loc)
             << what << " input '" << info.name << "' is declared with shape "
             << dimsString(info.dims) << " but gets "
             << shapeString(type.getShape());
    values[info.name] = v.tensor;
  }
  for (const onnx::Tensor &t : graph.initializers) {
    Location tloc = namedLoc("initializer '" + t.name + "'");
    auto type = tensorType(t, tloc, "initializer '" + t.name + "'");
    if (failed(type))
      return failure();
    values[t.name] = graph::ConstantOp::create(
        builder, tloc, makeWeightAttr(*type, t.data, t.name));
  }
  auto order = sortNodes(graph.nodes);
  if (failed(order))
    return failure();
  for (const onnx::Node *node : *order)
    if (failed(importNode(*node)))
      return failure();
  SmallVector<ONNXValue> results;
  for (const onnx::ValueInfo &out : graph.outputs) {
    if (Value v = values.lookup(out.name))
      results.push_back(v);
    else if (const Sequence *seq = lookupSequence(out.name))
      results.push_back(*seq);
    else
      return emitError(loc) << what << " output '" << out.name
                            << "' is not produced by any node, initializer "
                               "or input";
  }
  return results;
}

LogicalResult ONNXGraphImporter::importNode(const onnx::Node &node) {
  Location loc = nodeLoc(node);
  std::string domain = node.domain == "ai.onnx" ? "" : node.domain;
  int64_t nodeOpset = opset;
  if (!domain.empty()) {
    auto it = model.opsets.find(domain);
    nodeOpset = it == model.opsets.end() ? 0 : it->second;
  } else if (opset == 0) {
    return emitError(loc) << "node '" << node.displayName << "' uses ai.onnx "
                          << "operator '" << node.opType
                          << "' but the model imports no ai.onnx opset";
  }
  const OpConverter *conv = nullptr;
  for (const OpConverter &c : getONNXConverters())
    if (node.opType == c.opType && domain == c.domain &&
        c.minOpset <= nodeOpset && nodeOpset <= c.maxOpset)
      conv = &c;
  if (!conv && !domain.empty())
    return emitError(loc) << "unsupported ONNX operator '" << node.opType
                          << "' (domain '" << domain << "', opset " << nodeOpset
                          << ") at node '" << node.displayName << "'";
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
             << node.opType << "' (opset " << nodeOpset << ") at node '"
             << node.displayName << "'";
  }
  for (unsigned i = 0; i < conv->minInputs; ++i)
    if (i >= node.inputs.size() || node.inputs[i].empty())
      return emitError(loc) << "needs at least " << conv->minInputs << " input"
                            << (conv->minInputs == 1 ? "" : "s") << ", input #"
                            << i << " is missing";
  // Sequences reach only the operators that take them.
  static const llvm::StringSet<> takesSequences = {
      "SequenceInsert",     "SequenceAt",  "SequenceErase", "SequenceLength",
      "ConcatFromSequence", "SequenceMap", "Loop",          "Identity"};
  for (auto [i, name] : llvm::enumerate(node.inputs)) {
    if (name.empty())
      continue;
    if (!isDefined(name))
      return emitError(loc) << "input '" << name << "' of node '"
                            << node.displayName << "' is not defined";
    if (sequences.count(name) && !takesSequences.count(node.opType))
      return emitError(loc)
             << "input '" << name << "' is a sequence; ONNX operator '"
             << node.opType << "' takes tensors";
  }

  NodeContext nc(*this, node, nodeOpset, loc);
  if (failed(conv->convert(nc)))
    return failure();
  for (auto [i, name] : llvm::enumerate(node.outputs)) {
    if (name.empty())
      continue;
    const ONNXValue &v = nc.getOutputs()[i];
    if (v.tensor)
      values[name] = v.tensor;
    else if (v.sequence.elementType)
      sequences[name] = v.sequence;
    else
      return nc.unsupported("output #" + Twine(i) + " ('" + name + "')");
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

  auto order = sortNodes(model.nodes);
  if (failed(order))
    return nullptr;
  for (const onnx::Node *node : *order)
    if (failed(importNode(*node)))
      return nullptr;

  SmallVector<Value> results;
  for (const onnx::ValueInfo &out : model.outputs) {
    Location loc = namedLoc("output '" + out.name + "'");
    Value v = values.lookup(out.name);
    if (!v && sequences.count(out.name)) {
      emitError(loc) << "is a sequence; model outputs must be tensors";
      return nullptr;
    }
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
        "converter table\n(lib/Frontend/ONNX/ONNXOps.cpp); do not edit by "
        "hand. "
        "Opsets are those of the\ndefault `ai.onnx` domain that mlc accepts "
        "(1 to "
     << kMaxONNXOpset
     << "), or of the domain named after the operator. Attributes not listed "
        "for an operator are refused\nwith an "
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
    std::string domain =
        *c->domain ? " (" + std::string(c->domain) + ")" : std::string();
    int64_t maxOpset =
        *c->domain ? c->maxOpset : std::min(c->maxOpset, kMaxONNXOpset);
    os << "| " << c->opType << domain << " | " << c->minOpset << "-" << maxOpset
       << " | " << (attrs.empty() ? "" : attrs) << " | " << c->limits << " |\n";
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
