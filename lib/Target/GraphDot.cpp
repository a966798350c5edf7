//===- GraphDot.cpp - Graphviz picture of a graph-dialect module ----------===//
//
// Lets a user see what the compiler did to their model: which ops survived
// optimization and which ones each kernel computes.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/GraphDot.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace mlc::target {

namespace {

std::string typeLabel(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tensor = dyn_cast<RankedTensorType>(t)) {
    os << tensor.getElementType() << "[";
    llvm::interleave(tensor.getShape(), os, ",");
    os << "]";
  } else {
    os << t;
  }
  return s;
}

std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

class DotWriter {
public:
  DotWriter(llvm::raw_ostream &os) : os(os) {}

  void run(func::FuncOp func) {
    os << "digraph \"" << escape(func.getName()) << "\" {\n"
       << "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
    for (BlockArgument arg : func.getArguments()) {
      auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                    "mlc.name");
      std::string id = "in" + std::to_string(arg.getArgNumber());
      os << "  " << id << " [shape=ellipse, label=\""
         << escape(name ? name.getValue() : StringRef(id)) << "\\n"
         << typeLabel(arg.getType()) << "\"];\n";
      ids[arg] = id;
    }
    unsigned kernel = 0;
    for (Operation &op : func.getBody().front()) {
      if (auto group = dyn_cast<graph::FusionGroupOp>(op)) {
        writeGroup(group, kernel++);
        continue;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
          auto name = func.getResultAttrOfType<StringAttr>(i, "mlc.name");
          std::string id = "out" + std::to_string(i);
          os << "  " << id << " [shape=ellipse, style=bold, label=\""
             << escape(name ? name.getValue() : StringRef(id)) << "\"];\n";
          edge(v, id);
        }
        continue;
      }
      writeOp(&op, "  ");
    }
    for (const std::string &e : edges)
      os << e;
    os << "}\n";
  }

private:
  std::string newId() { return "n" + std::to_string(nextId++); }

  /// Edges are written after all nodes, at top level: an edge inside a
  /// cluster would pull its endpoints (weights, inputs) into the cluster.
  void edge(Value from, StringRef to) {
    auto it = ids.find(from);
    if (it != ids.end())
      edges.push_back("  " + it->second + " -> " + to.str() + ";\n");
  }

  void writeOp(Operation *op, StringRef indent) {
    std::string id = newId();
    bool weight = isa<graph::ConstantOp>(op);
    os << indent << id << " [shape=" << (weight ? "box" : "record")
       << ", label=\"" << escape(op->getName().stripDialect());
    for (Value r : op->getResults())
      os << "\\n" << typeLabel(r.getType());
    os << "\"];\n";
    for (Value operand : op->getOperands())
      edge(operand, id);
    for (Value r : op->getResults())
      ids[r] = id;
  }

  void writeGroup(graph::FusionGroupOp group, unsigned kernel) {
    Block &body = group.getBody().front();
    // Inside the cluster, block arguments stand for the group's inputs.
    for (auto [arg, in] : llvm::zip(body.getArguments(), group.getInputs()))
      if (ids.count(in))
        ids[arg] = ids[in];
    os << "  subgraph cluster_" << kernel << " {\n"
       << "    label=\"kernel " << kernel << " (" << group.getKind()
       << ")\";\n    style=rounded; color=blue;\n";
    for (Operation &op : body.without_terminator())
      writeOp(&op, "    ");
    os << "  }\n";
    auto yield = cast<graph::YieldOp>(body.getTerminator());
    for (auto [res, v] : llvm::zip(group.getResults(), yield.getValues()))
      ids[res] = ids[v];
  }

  llvm::raw_ostream &os;
  llvm::DenseMap<Value, std::string> ids;
  std::vector<std::string> edges;
  unsigned nextId = 0;
};

} // namespace

LogicalResult printGraphDot(ModuleOp module, StringRef entry,
                            llvm::raw_ostream &os) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.getBody().getBlocks().size() != 1)
    return module.emitError() << "no single-block entry function '" << entry
                              << "' to draw";
  DotWriter(os).run(func);
  return success();
}

} // namespace mlc::target
