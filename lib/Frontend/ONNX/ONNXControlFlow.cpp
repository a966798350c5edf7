//===- ONNXControlFlow.cpp - If, Loop and Scan as static graphs -----------===//
//
// mlc compiles static graphs, so control flow is resolved at import time:
//  - If with a condition known at compile time is replaced by its branch; on
//    a run-time condition both branches are imported and each output is a
//    select between them (both must give the same static type).
//  - Loop with a compile-time trip count and conditions, and Scan over a
//    static sequence length, are unrolled: the body is imported once per
//    iteration with the loop-carried values bound to its inputs, and the
//    per-iteration scan outputs are stacked.
// Subgraphs read the enclosing graphs' values by name (ImportONNX.cpp's
// importSubgraph).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {

namespace {

/// Unrolling stops with an error past this many imported body nodes: a loop
/// that long is not what a static graph should hold.
constexpr int64_t kMaxUnrolledNodes = 200000;

constexpr int64_t kMax = kMaxONNXOpset;

LogicalResult setOutputs(N &n, ArrayRef<ONNXValue> values, StringRef what) {
  if (values.size() != n.numOutputs())
    return n.error() << what << " gives " << values.size()
                     << " outputs, the node has " << n.numOutputs();
  for (auto [i, v] : llvm::enumerate(values))
    n.setOutput(i, v);
  return success();
}

/// The value of a one-element bool tensor known at compile time.
std::optional<bool> constantBool(N &n, Value v) {
  if (!v)
    return std::nullopt;
  auto t = n.tryConstant(v);
  if (!t || t->getNumElements() != 1 || t->getKind() != graph::ElementKind::I1)
    return std::nullopt;
  return t->getBytes()[0] != 0;
}

LogicalResult checkCondition(N &n, Value cond, StringRef what) {
  auto type = N::typeOf(cond);
  if (!type.getElementType().isInteger(1) || type.getNumElements() != 1)
    return n.error() << what << " must be a bool tensor of one element, got "
                     << type;
  return success();
}

LogicalResult checkUnrollSize(N &n, int64_t iterations,
                              const onnx::Graph &body) {
  if (iterations * std::max<int64_t>(1, body.nodes.size()) > kMaxUnrolledNodes)
    return n.unsupported(Twine(iterations) + " iterations of a " +
                         Twine(body.nodes.size()) + "-node body (more than " +
                         Twine(kMaxUnrolledNodes) + " nodes unrolled)");
  return success();
}

LogicalResult convertIf(N &n) {
  MLC_TRY(thenBranch, n.getGraph("then_branch"));
  MLC_TRY(elseBranch, n.getGraph("else_branch"));
  Value cond = n.input(0);
  if (failed(checkCondition(n, cond, "the condition")))
    return failure();
  if (std::optional<bool> c = constantBool(n, cond)) {
    StringRef name = *c ? "then_branch" : "else_branch";
    MLC_TRY(results, n.importSubgraph(*c ? *thenBranch : *elseBranch, {},
                                      "the " + name + " of If"));
    return setOutputs(n, results, name);
  }
  // A run-time condition: both branches are computed and selected between.
  MLC_TRY(thenResults, n.importSubgraph(*thenBranch, {}, "the then_branch"));
  MLC_TRY(elseResults, n.importSubgraph(*elseBranch, {}, "the else_branch"));
  if (thenResults.size() != elseResults.size())
    return n.error() << "the then_branch gives " << thenResults.size()
                     << " outputs and the else_branch " << elseResults.size();
  MLC_TRY(scalarCond, reshape(n, cond, {}));
  auto pick = [&](unsigned i, Value t, Value e) -> FailureOr<Value> {
    if (t.getType() != e.getType())
      return n.unsupported(
          "run-time condition with branches of different types (output #" +
          Twine(i) + ": " + shapeString(N::shapeOf(t)) + " and " +
          shapeString(N::shapeOf(e)) +
          "; both branches must give the same static type)");
    return select(n, scalarCond, t, e);
  };
  SmallVector<ONNXValue> results;
  for (auto [i, t, e] : llvm::enumerate(thenResults, elseResults)) {
    if (t.isSequence() != e.isSequence() ||
        (t.isSequence() && t.sequence.items.size() != e.sequence.items.size()))
      return n.unsupported("run-time condition with branches giving "
                           "different kinds or lengths of output #" +
                           Twine(i));
    if (!t.isSequence()) {
      MLC_TRY(v, pick(i, t.tensor, e.tensor));
      results.push_back(v);
      continue;
    }
    Sequence seq{t.sequence.elementType, {}};
    for (auto [ti, ei] : llvm::zip(t.sequence.items, e.sequence.items)) {
      MLC_TRY(v, pick(i, ti, ei));
      seq.items.push_back(v);
    }
    results.push_back(seq);
  }
  return setOutputs(n, results, "the If");
}

/// Loop (opset 1-16 forms agree on what a static unroll needs): inputs
/// M (trip count), cond, v_initial...; body (iteration, cond, v...) ->
/// (cond, v..., scan outputs...).
LogicalResult convertLoop(N &n) {
  MLC_TRY(body, n.getGraph("body"));
  if (n.numInputs() < 2)
    return n.error() << "needs the trip count and condition inputs (either "
                        "may be empty)";
  std::optional<int64_t> tripCount;
  if (n.hasInput(0)) {
    MLC_TRY(m, n.constantInts(0, "the trip count of Loop"));
    if (m.size() != 1)
      return n.error() << "the trip count must have one element";
    tripCount = std::max<int64_t>(0, m[0]);
  }
  bool cond = true;
  if (n.hasInput(1)) {
    if (failed(checkCondition(n, n.input(1), "the condition")))
      return failure();
    MLC_TRY(c, n.constantInts(1, "the condition of Loop"));
    cond = !c.empty() && c[0] != 0;
  }
  if (!tripCount && !n.hasInput(1))
    return n.unsupported("Loop without a trip count or condition (it never "
                         "ends)");
  unsigned numCarried = n.numInputs() - 2;
  if (body->inputs.size() != numCarried + 2 ||
      body->outputs.size() < numCarried + 1)
    return n.error() << "the body takes " << body->inputs.size()
                     << " inputs and gives " << body->outputs.size()
                     << " outputs; the node carries " << numCarried
                     << " values";
  unsigned numScan = body->outputs.size() - 1 - numCarried;
  SmallVector<ONNXValue> carried;
  for (unsigned i = 0; i < numCarried; ++i) {
    if (!n.hasInput(2 + i))
      return n.error() << "loop-carried input #" << 2 + i << " is missing";
    carried.push_back(n.anyInput(2 + i));
  }
  Type i1 = n.b.getI1Type();
  std::vector<SmallVector<Value>> scans(numScan);
  int64_t i = 0;
  for (; cond && (!tripCount || i < *tripCount); ++i) {
    if (failed(checkUnrollSize(n, i + 1, *body)))
      return failure();
    SmallVector<ONNXValue> args{n.i64Constant({i}, {}), n.scalar(i1, 1.0)};
    args.append(carried);
    MLC_TRY(results,
            n.importSubgraph(*body, args,
                             "the body of Loop (iteration " + Twine(i) + ")"));
    std::optional<bool> next = constantBool(n, results[0].tensor);
    if (!next)
      return n.unsupported("condition computed at run time (iteration " +
                           Twine(i) +
                           "): only loops with a compile-time "
                           "number of iterations unroll");
    cond = *next;
    carried.assign(results.begin() + 1, results.begin() + 1 + numCarried);
    for (unsigned k = 0; k < numScan; ++k) {
      Value v = results[1 + numCarried + k].tensor;
      if (!v)
        return n.unsupported("sequence as scan output #" + Twine(k));
      scans[k].push_back(v);
    }
  }
  SmallVector<ONNXValue> outputs(carried);
  for (unsigned k = 0; k < numScan; ++k) {
    if (scans[k].empty())
      return n.unsupported("scan output #" + Twine(k) +
                           " of a Loop that runs no iteration");
    MLC_TRY(s,
            stackAxis(n, scans[k], 0,
                      "scan output #" + std::to_string(k) + " in iteration"));
    outputs.push_back(s);
  }
  return setOutputs(n, outputs, "the Loop");
}

/// One Scan over `length` steps: each scan input is sliced along its axis
/// (from the end where its direction is 1), the body maps (states, slices)
/// to (states, scan outputs), and those are stacked along their axes.
struct ScanSpec {
  SmallVector<int64_t> inputAxes, inputDirections;
  SmallVector<int64_t> outputAxes, outputDirections;
};

FailureOr<SmallVector<Value>> scanSteps(N &n, const onnx::Graph &body,
                                        SmallVector<Value> states,
                                        ArrayRef<Value> scanInputs,
                                        const ScanSpec &spec) {
  int64_t length = -1;
  for (auto [j, x] : llvm::enumerate(scanInputs)) {
    int64_t len = N::shapeOf(x)[spec.inputAxes[j]];
    if (length >= 0 && len != length)
      return n.error() << "scan input #" << j << " has " << len
                       << " steps along its axis, the first " << length;
    length = len;
  }
  if (failed(checkUnrollSize(n, length, body)))
    return failure();
  unsigned numScanOut = body.outputs.size() - states.size();
  std::vector<SmallVector<Value>> pieces(numScanOut);
  for (int64_t t = 0; t < length; ++t) {
    SmallVector<ONNXValue> args(states.begin(), states.end());
    for (auto [j, x] : llvm::enumerate(scanInputs)) {
      int64_t axis = spec.inputAxes[j];
      int64_t step = spec.inputDirections[j] ? length - 1 - t : t;
      MLC_TRY(slice, sliceAxis(n, x, axis, step, step + 1));
      SmallVector<int64_t> shape(N::shapeOf(x));
      shape.erase(shape.begin() + axis);
      MLC_TRY(squeezed, reshape(n, slice, shape));
      args.push_back(squeezed);
    }
    MLC_TRY(results,
            n.importSubgraph(body, args,
                             "the body of Scan (step " + Twine(t) + ")"));
    for (auto [k, r] : llvm::enumerate(results)) {
      if (r.isSequence())
        return n.unsupported("sequence as output #" + Twine(k) +
                             " of the body of Scan");
      if (k < states.size())
        states[k] = r.tensor;
      else
        pieces[k - states.size()].push_back(r.tensor);
    }
  }
  SmallVector<Value> outputs(states);
  for (unsigned k = 0; k < numScanOut; ++k) {
    if (pieces[k].empty())
      return n.unsupported("scan output #" + Twine(k) +
                           " of a Scan of 0 steps");
    if (spec.outputDirections[k])
      std::reverse(pieces[k].begin(), pieces[k].end());
    int64_t rank = N::rankOf(pieces[k].front()) + 1;
    MLC_TRY(axis,
            n.normalizeAxis(spec.outputAxes[k], rank, "scan_output_axes"));
    MLC_TRY(s,
            stackAxis(n, pieces[k], axis,
                      "scan output #" + std::to_string(k) + " in iteration"));
    outputs.push_back(s);
  }
  return outputs;
}

/// Reads a per-input list attribute (axes or directions) of `count` entries.
FailureOr<SmallVector<int64_t>> perInput(N &n, StringRef name, size_t count) {
  MLC_TRY(v, n.getInts(name, SmallVector<int64_t>(count, 0)));
  if (v.size() != count)
    return n.error() << "attribute '" << name << "' has " << v.size()
                     << " entries, expected " << count;
  return v;
}

LogicalResult convertScan(N &n) {
  MLC_TRY(body, n.getGraph("body"));
  MLC_TRY(numScanInputs, n.getInt("num_scan_inputs"));
  // Opset 8 has a leading sequence_lens input and a batch axis 0 on every
  // input and output; the body sees one batch entry.
  bool batched = n.opset < 9;
  unsigned first = batched ? 1 : 0;
  if (numScanInputs < 1 || numScanInputs > int64_t(n.numInputs() - first))
    return n.error() << "num_scan_inputs " << numScanInputs << " does not fit "
                     << n.numInputs() - first << " inputs";
  unsigned numStates = n.numInputs() - first - numScanInputs;
  if (int64_t(body->inputs.size()) != numStates + numScanInputs ||
      body->outputs.size() < numStates)
    return n.error() << "the body takes " << body->inputs.size()
                     << " inputs and gives " << body->outputs.size()
                     << " outputs for " << numStates << " states and "
                     << numScanInputs << " scan inputs";
  unsigned numScanOut = body->outputs.size() - numStates;
  SmallVector<Value> states, scanInputs;
  for (unsigned i = first; i < n.numInputs(); ++i) {
    if (!n.hasInput(i))
      return n.error() << "input #" << i << " is missing";
    (i < first + numStates ? states : scanInputs).push_back(n.input(i));
  }
  ScanSpec spec;
  if (batched) {
    MLC_TRY(dirs, perInput(n, "directions", numScanInputs));
    spec.inputDirections = dirs;
    spec.inputAxes.assign(numScanInputs, 0);
    spec.outputAxes.assign(numScanOut, 0);
    spec.outputDirections.assign(numScanOut, 0);
  } else {
    MLC_TRY(inAxes, perInput(n, "scan_input_axes", numScanInputs));
    MLC_TRY(inDirs, perInput(n, "scan_input_directions", numScanInputs));
    MLC_TRY(outAxes, perInput(n, "scan_output_axes", numScanOut));
    MLC_TRY(outDirs, perInput(n, "scan_output_directions", numScanOut));
    for (auto [j, x] : llvm::enumerate(scanInputs)) {
      MLC_TRY(axis,
              n.normalizeAxis(inAxes[j], N::rankOf(x), "scan_input_axes"));
      spec.inputAxes.push_back(axis);
    }
    spec.inputDirections = inDirs;
    spec.outputAxes = outAxes;
    spec.outputDirections = outDirs;
  }
  if (!batched) {
    MLC_TRY(outputs, scanSteps(n, *body, states, scanInputs, spec));
    return setOutputs(n, SmallVector<ONNXValue>(outputs.begin(), outputs.end()),
                      "the Scan");
  }

  // Opset 8: one scan per batch entry, results stacked along axis 0.
  int64_t batch = -1;
  for (Value x : llvm::concat<Value>(states, scanInputs)) {
    if (N::rankOf(x) < 1 || (batch >= 0 && N::shapeOf(x)[0] != batch))
      return n.error() << "every input needs the same batch size on axis 0";
    batch = N::shapeOf(x)[0];
  }
  if (n.hasInput(0)) {
    MLC_TRY(lens, n.constantInts(0, "the sequence_lens of Scan"));
    for (int64_t len : lens)
      if (N::rankOf(scanInputs[0]) < 2 || len != N::shapeOf(scanInputs[0])[1])
        return n.unsupported("sequence_lens shorter than the scan inputs");
  }
  std::vector<SmallVector<Value>> perBatch(numStates + numScanOut);
  for (int64_t b = 0; b < batch; ++b) {
    auto entry = [&](Value x) -> FailureOr<Value> {
      MLC_TRY(s, sliceAxis(n, x, 0, b, b + 1));
      return reshape(n, s, N::shapeOf(x).drop_front());
    };
    SmallVector<Value> bStates, bInputs;
    for (Value s : states) {
      MLC_TRY(e, entry(s));
      bStates.push_back(e);
    }
    for (Value x : scanInputs) {
      MLC_TRY(e, entry(x));
      bInputs.push_back(e);
    }
    MLC_TRY(outputs, scanSteps(n, *body, bStates, bInputs, spec));
    for (auto [k, v] : llvm::enumerate(outputs))
      perBatch[k].push_back(v);
  }
  SmallVector<ONNXValue> outputs;
  for (auto [k, pieces] : llvm::enumerate(perBatch)) {
    MLC_TRY(s, stackAxis(n, pieces, 0,
                         "output #" + std::to_string(k) + " of batch entry"));
    outputs.push_back(s);
  }
  return setOutputs(n, outputs, "the Scan");
}

const OpConverter kConverters[] = {
    {"If", 1, kMax, 1, "then_branch,else_branch", convertIf,
     "a run-time condition computes both branches and selects (both must "
     "give the same static types)"},
    {"Loop", 1, kMax, 0, "body", convertLoop,
     "unrolled: compile-time trip count and conditions, at most 200000 body "
     "nodes in all; no sequence or optional values"},
    {"Scan", 8, 8, 0, "body,num_scan_inputs,directions", convertScan,
     "unrolled over the static sequence length; sequence_lens must be the "
     "full length"},
    {"Scan", 9, kMax, 1,
     "body,num_scan_inputs,scan_input_axes,scan_input_directions,"
     "scan_output_axes,scan_output_directions",
     convertScan, "unrolled over the static sequence length"},
};

} // namespace

ArrayRef<OpConverter> getControlFlowConverters() { return kConverters; }

} // namespace mlc::frontend
