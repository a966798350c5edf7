//===- ImportModel.cpp - ModelSpec -> graph dialect -----------------------===//
//
// Turns a validated ModelSpec into a module with one function @main. This is
// where attribute defaults are filled in and negative axes normalized (both
// need operand ranks); everything about shapes is then checked by each op's
// own type inference, whose messages are reported at the node's JSON path.
//
//===----------------------------------------------------------------------===//

#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/WindowBuilders.h"
#include "mlc/Frontend/Common/WeightAttr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace mlc::frontend {

Location jsonLocation(MLIRContext *ctx, StringRef file, StringRef path) {
  return NameLoc::get(StringAttr::get(ctx, path),
                      FileLineColLoc::get(ctx, file, 0, 0));
}

namespace {

Type elementType(MLIRContext *ctx, DType t) {
  switch (t) {
  case DType::F32:
    return Float32Type::get(ctx);
  case DType::I64:
    return IntegerType::get(ctx, 64);
  case DType::I32:
    return IntegerType::get(ctx, 32);
  case DType::Bool:
    return IntegerType::get(ctx, 1);
  }
  return {};
}

class NodeAttrs;

/// The window ops (conv1d ... conv_transpose3d): built from the 2-D graph
/// ops by graph::buildConv and friends.
struct WindowOpKind {
  enum Kind { Conv, MaxPool, AvgPool, ConvTranspose } kind;
  int dims;
};

std::optional<WindowOpKind> windowOpKind(StringRef op) {
  static const std::pair<const char *, WindowOpKind::Kind> prefixes[] = {
      {"conv_transpose", WindowOpKind::ConvTranspose},
      {"conv", WindowOpKind::Conv},
      {"maxpool", WindowOpKind::MaxPool},
      {"avgpool", WindowOpKind::AvgPool}};
  for (auto [prefix, kind] : prefixes) {
    if (!op.consume_front(prefix))
      continue;
    if (op.size() == 2 && op[1] == 'd' && op[0] >= '1' && op[0] <= '3')
      return WindowOpKind{kind, op[0] - '0'};
    return std::nullopt;
  }
  return std::nullopt;
}

class Importer {
public:
  Importer(MLIRContext *ctx, const ModelSpec &spec,
           ArrayRef<std::string> weightArguments)
      : ctx(ctx), spec(spec), weightArguments(weightArguments), builder(ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  Location loc(StringRef path) {
    return jsonLocation(ctx, spec.sourcePath, path);
  }
  InFlightDiagnostic error(StringRef path) { return emitError(loc(path)); }

  Value weight(const WeightDecl &w);
  LogicalResult buildNode(const NodeDecl &node);
  LogicalResult buildWindowNode(const NodeDecl &node, WindowOpKind kind,
                                ArrayRef<Value> operands, NodeAttrs &a,
                                Location opLoc);

  MLIRContext *ctx;
  const ModelSpec &spec;
  ArrayRef<std::string> weightArguments;
  OpBuilder builder;
  llvm::StringMap<Value> values;
};

/// Typed access to a node's attributes with defaults; reports errors at
/// "nodes[i].attrs.<name>".
class NodeAttrs {
public:
  NodeAttrs(const NodeDecl &node,
            std::function<InFlightDiagnostic(StringRef)> error)
      : node(node), error(std::move(error)) {}

  bool has(StringRef name) const { return node.attrs.count(name.str()); }
  std::string path(StringRef name) const {
    return node.path + ".attrs." + name.str();
  }

  FailureOr<int64_t> getInt(StringRef name, std::optional<int64_t> def) {
    auto it = node.attrs.find(name.str());
    if (it == node.attrs.end())
      return missing(name, def);
    if (auto *v = std::get_if<int64_t>(&it->second))
      return *v;
    return wrongKind(name, "an integer");
  }
  FailureOr<double> getFloat(StringRef name, double def) {
    auto it = node.attrs.find(name.str());
    if (it == node.attrs.end())
      return def;
    if (auto *v = std::get_if<double>(&it->second))
      return *v;
    if (auto *v = std::get_if<int64_t>(&it->second))
      return double(*v);
    return wrongKind(name, "a number");
  }
  FailureOr<bool> getBool(StringRef name, bool def) {
    auto it = node.attrs.find(name.str());
    if (it == node.attrs.end())
      return def;
    if (auto *v = std::get_if<bool>(&it->second))
      return *v;
    return wrongKind(name, "a boolean");
  }
  FailureOr<std::string> getString(StringRef name,
                                   std::optional<std::string> def) {
    auto it = node.attrs.find(name.str());
    if (it == node.attrs.end())
      return missing(name, def);
    if (auto *v = std::get_if<std::string>(&it->second))
      return *v;
    return wrongKind(name, "a string");
  }
  FailureOr<SmallVector<int64_t>>
  getList(StringRef name, std::optional<SmallVector<int64_t>> def) {
    auto it = node.attrs.find(name.str());
    if (it == node.attrs.end())
      return missing(name, def);
    if (auto *v = std::get_if<IntList>(&it->second))
      return SmallVector<int64_t>(v->begin(), v->end());
    return wrongKind(name, "a list of integers");
  }

  /// Normalizes a possibly negative axis for `rank`.
  FailureOr<int64_t> axis(StringRef name, int64_t value, int64_t rank) {
    if (value < -rank || value >= rank) {
      error(path(name)) << "axis " << value << " is out of range for rank "
                        << rank;
      return failure();
    }
    return value < 0 ? value + rank : value;
  }

private:
  template <typename T>
  FailureOr<T> missing(StringRef name, std::optional<T> def) {
    if (def)
      return *def;
    error(path(name)) << "missing required attribute '" << name << "'";
    return failure();
  }
  LogicalResult wrongKind(StringRef name, StringRef kind) {
    error(path(name)) << "expected " << kind;
    return failure();
  }

  const NodeDecl &node;
  std::function<InFlightDiagnostic(StringRef)> error;
};

Value Importer::weight(const WeightDecl &w) {
  auto type = RankedTensorType::get(w.shape, elementType(ctx, w.dtype));
  if (w.data.size() != size_t(w.numElements()) * dtypeSize(w.dtype)) {
    error(w.path) << "weight '" << w.name
                  << "' has no data (only weights trained by mlc-compile "
                     "--train with random init may omit it)";
    return nullptr;
  }
  return graph::ConstantOp::create(
      builder, loc(w.path),
      makeWeightAttr(type, ArrayRef<char>(w.data.data(), w.data.size()),
                     w.name));
}

LogicalResult Importer::buildNode(const NodeDecl &node) {
  std::string where = node.path + " (" + node.op +
                      (node.name.empty() ? "" : " '" + node.name + "'") + ")";
  Location opLoc = loc(where);
  SmallVector<Value> operands;
  for (auto [i, name] : llvm::enumerate(node.inputs)) {
    auto it = values.find(name);
    if (it == values.end()) {
      error(node.path + ".inputs[" + std::to_string(i) + "]")
          << "unknown value '" << name << "'";
      return failure();
    }
    operands.push_back(it->second);
  }
  auto rankOf = [&](unsigned i) {
    return cast<RankedTensorType>(operands[i].getType()).getRank();
  };
  NodeAttrs a(node, [&](StringRef p) { return error(p); });
  Builder &b = builder;
  SmallVector<NamedAttribute> attrs;
  auto set = [&](StringRef name, Attribute value) {
    attrs.push_back(b.getNamedAttr(name, value));
  };
  auto setList = [&](StringRef name, ArrayRef<int64_t> v) {
    set(name, b.getDenseI64ArrayAttr(v));
  };
  const std::string &op = node.op;
  if (std::optional<WindowOpKind> window = windowOpKind(op))
    return buildWindowNode(node, *window, operands, a, opLoc);

  if (op == "gelu") {
    auto approx = a.getString("approximate", std::string("none"));
    if (failed(approx))
      return failure();
    if (*approx == "tanh")
      set("tanh_approximation", b.getUnitAttr());
  } else if (op == "batch_norm" || op == "layer_norm") {
    auto eps = a.getFloat("epsilon", 1e-5);
    if (failed(eps))
      return failure();
    set("epsilon", b.getF32FloatAttr(*eps));
    if (op == "layer_norm") {
      auto axis = a.getInt("axis", -1);
      if (failed(axis))
        return failure();
      auto norm = a.axis("axis", *axis, rankOf(0));
      if (failed(norm))
        return failure();
      set("axis", b.getI64IntegerAttr(*norm));
    }
  } else if (op == "softmax" || op == "log_softmax" || op == "concat" ||
             op == "gather") {
    std::optional<int64_t> def;
    if (op == "softmax" || op == "log_softmax")
      def = -1;
    else if (op == "gather")
      def = 0;
    auto axis = a.getInt("axis", def);
    if (failed(axis))
      return failure();
    auto norm = a.axis("axis", *axis, rankOf(0));
    if (failed(norm))
      return failure();
    set("axis", b.getI64IntegerAttr(*norm));
  } else if (op == "reduce_sum" || op == "reduce_mean" || op == "reduce_max") {
    int64_t rank = rankOf(0);
    SmallVector<int64_t> all;
    for (int64_t i = 0; i < rank; ++i)
      all.push_back(i);
    auto axes = a.getList("axes", all);
    auto keep = a.getBool("keepdims", true);
    if (failed(axes) || failed(keep))
      return failure();
    SmallVector<int64_t> norm;
    for (int64_t v : *axes) {
      auto n = a.axis("axes", v, rank);
      if (failed(n))
        return failure();
      if (llvm::is_contained(norm, *n)) {
        error(a.path("axes")) << "axis " << v << " is repeated";
        return failure();
      }
      norm.push_back(*n);
    }
    llvm::sort(norm);
    setList("axes", norm);
    set("keepdims", b.getBoolAttr(*keep));
  } else if (op == "reshape") {
    auto shape = a.getList("shape", std::nullopt);
    if (failed(shape))
      return failure();
    setList("shape", *shape);
  } else if (op == "transpose") {
    SmallVector<int64_t> rev;
    for (int64_t i = rankOf(0) - 1; i >= 0; --i)
      rev.push_back(i);
    auto perm = a.getList("perm", rev);
    if (failed(perm))
      return failure();
    setList("perm", *perm);
  } else if (op == "slice") {
    auto type = cast<RankedTensorType>(operands[0].getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> all;
    for (int64_t i = 0; i < rank; ++i)
      all.push_back(i);
    auto starts = a.getList("starts", std::nullopt);
    auto ends = a.getList("ends", std::nullopt);
    auto axes = a.getList("axes", all);
    if (failed(starts) || failed(ends) || failed(axes))
      return failure();
    auto steps = a.getList("steps", SmallVector<int64_t>(axes->size(), 1));
    if (failed(steps))
      return failure();
    if (starts->size() != axes->size() || ends->size() != axes->size() ||
        steps->size() != axes->size()) {
      error(a.path(a.has("axes") ? "axes" : "starts"))
          << "starts (" << starts->size() << "), ends (" << ends->size()
          << "), axes (" << axes->size() << ") and steps (" << steps->size()
          << ") must have the same length";
      return failure();
    }
    SmallVector<int64_t> s(rank, 0), e(type.getShape()), st(rank, 1);
    SmallVector<bool> seen(rank, false);
    for (size_t i = 0; i < axes->size(); ++i) {
      auto ax = a.axis("axes", (*axes)[i], rank);
      if (failed(ax))
        return failure();
      if (seen[*ax]) {
        error(a.path("axes")) << "axis " << (*axes)[i] << " is repeated";
        return failure();
      }
      seen[*ax] = true;
      int64_t n = type.getDimSize(*ax);
      if ((*steps)[i] <= 0) {
        error(a.path("steps")) << "steps must be positive, got " << (*steps)[i];
        return failure();
      }
      // numpy semantics: negative counts from the end, then clamp.
      auto clampIdx = [&](int64_t v) {
        if (v < 0)
          v += n;
        return std::clamp<int64_t>(v, 0, n);
      };
      s[*ax] = clampIdx((*starts)[i]);
      e[*ax] = std::max(s[*ax], clampIdx((*ends)[i]));
      st[*ax] = (*steps)[i];
    }
    setList("starts", s);
    setList("ends", e);
    setList("steps", st);
  } else if (op == "pad") {
    auto pads = a.getList("pads", std::nullopt);
    auto value = a.getFloat("value", 0.0);
    if (failed(pads) || failed(value))
      return failure();
    setList("pads", *pads);
    set("value", b.getF64FloatAttr(*value));
  } else if (op == "cast") {
    auto to = a.getString("to", std::nullopt);
    if (failed(to))
      return failure();
    Type t = *to == "f32"    ? elementType(ctx, DType::F32)
             : *to == "i64"  ? elementType(ctx, DType::I64)
             : *to == "i32"  ? elementType(ctx, DType::I32)
             : *to == "bool" ? elementType(ctx, DType::Bool)
                             : Type();
    if (!t) {
      error(a.path("to")) << "unknown dtype '" << *to << "'";
      return failure();
    }
    set("to", TypeAttr::get(t));
  } else if (op == "compare") {
    auto pred = a.getString("predicate", std::nullopt);
    if (failed(pred))
      return failure();
    auto p = graph::symbolizeComparePredicate(*pred);
    if (!p) {
      error(a.path("predicate")) << "unknown predicate '" << *pred << "'";
      return failure();
    }
    set("predicate", graph::ComparePredicateAttr::get(ctx, *p));
  }

  OperationState state(opLoc, "graph." + op);
  if (!state.name.getRegisteredInfo()) {
    error(node.path + ".op") << "unknown op '" << op << "'";
    return failure();
  }
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(NoneType::get(ctx)); // set by inference below
  Operation *created = builder.create(state);
  if (failed(graph::inferAndSetResultTypes(created)))
    return failure();
  values[node.output] = created->getResult(0);
  return success();
}

LogicalResult Importer::buildWindowNode(const NodeDecl &node, WindowOpKind kind,
                                        ArrayRef<Value> operands, NodeAttrs &a,
                                        Location opLoc) {
  int d = kind.dims;
  bool isPool =
      kind.kind == WindowOpKind::MaxPool || kind.kind == WindowOpKind::AvgPool;
  int64_t rank = cast<RankedTensorType>(operands[0].getType()).getRank();
  if (rank != d + 2) {
    error(node.path + ".inputs[0]")
        << node.op << " needs an input of rank " << d + 2 << " ([N, C"
        << (d == 1   ? ", W"
            : d == 2 ? ", H, W"
                     : ", D, H, W")
        << "]), got rank " << rank;
    return failure();
  }
  SmallVector<int64_t> ones(d, 1), zeros(2 * d, 0);
  graph::Window win;
  if (isPool) {
    auto kernel = a.getList("kernel", std::nullopt);
    if (failed(kernel))
      return failure();
    win.kernel.assign(kernel->begin(), kernel->end());
  }
  auto strides = a.getList("strides", isPool ? to_vector(win.kernel) : ones);
  auto pads = a.getList("pads", zeros);
  auto dilations = a.getList("dilations", ones);
  auto groups = a.getInt("groups", 1);
  auto outPad = a.getList("output_padding", SmallVector<int64_t>(d, 0));
  auto cip = a.getBool("count_include_pad", false);
  if (failed(strides) || failed(pads) || failed(dilations) || failed(groups) ||
      failed(outPad) || failed(cip))
    return failure();
  win.strides.assign(strides->begin(), strides->end());
  win.dilations.assign(dilations->begin(), dilations->end());
  win.padsBegin.assign(pads->begin(), pads->begin() + d);
  win.padsEnd.assign(pads->begin() + d, pads->end());
  win.groups = *groups;
  win.countIncludePad = *cip;

  graph::LocatedBuilder cb(builder, opLoc);
  Value bias = operands.size() > 2 ? operands[2] : Value();
  FailureOr<Value> y;
  switch (kind.kind) {
  case WindowOpKind::Conv:
    y = graph::buildConv(cb, operands[0], operands[1], bias, win);
    break;
  case WindowOpKind::MaxPool:
  case WindowOpKind::AvgPool:
    y = graph::buildPool(cb, operands[0], kind.kind == WindowOpKind::MaxPool,
                         win);
    break;
  case WindowOpKind::ConvTranspose:
    // The full result loses pads at each end, output_padding less at the
    // end.
    for (int i = 0; i < d; ++i)
      win.padsEnd[i] -= (*outPad)[i];
    y = graph::buildConvTranspose(cb, operands[0], operands[1], bias, win);
    break;
  }
  if (failed(y))
    return failure();
  values[node.output] = *y;
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  Location fileLoc = FileLineColLoc::get(ctx, spec.sourcePath, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  if (!spec.name.empty())
    (*module)->setAttr("mlc.model_name", builder.getStringAttr(spec.name));
  builder.setInsertionPointToEnd(module->getBody());

  // Weights passed as arguments come first, then the model inputs.
  SmallVector<const TensorDecl *> args;
  for (const std::string &name : weightArguments) {
    auto it = llvm::find_if(
        spec.weights, [&](const WeightDecl &w) { return w.name == name; });
    if (it == spec.weights.end()) {
      emitError(fileLoc) << "no weight named '" << name << "'";
      return nullptr;
    }
    args.push_back(&*it);
  }
  for (const TensorDecl &in : spec.inputs)
    args.push_back(&in);
  SmallVector<Type> inputTypes;
  for (const TensorDecl *in : args)
    inputTypes.push_back(
        RankedTensorType::get(in->shape, elementType(ctx, in->dtype)));
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(inputTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, in] : llvm::enumerate(args)) {
    func.setArgAttr(i, "mlc.name", builder.getStringAttr(in->name));
    entry->getArgument(i).setLoc(loc(in->path));
    values[in->name] = entry->getArgument(i);
  }
  builder.setInsertionPointToStart(entry);
  for (const WeightDecl &w : spec.weights) {
    if (values.count(w.name))
      continue;
    if (!(values[w.name] = weight(w)))
      return nullptr;
  }
  for (const NodeDecl &node : spec.nodes)
    if (failed(buildNode(node)))
      return nullptr;

  SmallVector<Value> results;
  for (const OutputDecl &out : spec.outputs) {
    auto it = values.find(out.name);
    if (it == values.end()) {
      error(out.path) << "unknown value '" << out.name << "'";
      return nullptr;
    }
    results.push_back(it->second);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(inputTypes, ValueRange(results).getTypes()));
  for (auto [i, out] : llvm::enumerate(spec.outputs))
    func.setResultAttr(i, "mlc.name", builder.getStringAttr(out.name));
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importModel(MLIRContext *ctx, const ModelSpec &spec,
                                  ArrayRef<std::string> weightArguments) {
  ctx->loadDialect<graph::GraphDialect, func::FuncDialect>();
  return Importer(ctx, spec, weightArguments).run();
}

OwningOpRef<ModuleOp> importModelJSON(MLIRContext *ctx, StringRef path) {
  ModelSpec spec;
  Diagnostic diag;
  if (!parseModelJSON(path.str(), spec, diag)) {
    emitError(jsonLocation(ctx, path, diag.path)) << diag.message;
    return nullptr;
  }
  return importModel(ctx, spec);
}

} // namespace mlc::frontend
