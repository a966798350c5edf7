//===- ONNXSequence.cpp - sequence operators folded away at import --------===//
//
// mlc graphs hold tensors only. An ONNX sequence whose length is known at
// compile time (built by SequenceEmpty/Construct/Insert, SplitToSequence,
// a Loop that appends to it) is a list of graph values in the importer
// (Sequence), and the operators on it pick, insert or erase list entries;
// ConcatFromSequence and SequenceAt turn it back into tensors. Positions
// must be compile-time constants.
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {

namespace {

constexpr int64_t kMax = kMaxONNXOpset;

/// Input i (a compile-time scalar position) normalized against `size`;
/// `size` itself is allowed where `inclusiveEnd` (an insert at the end).
FailureOr<int64_t> position(N &n, unsigned i, int64_t size, bool inclusiveEnd) {
  MLC_TRY(p, n.constantInts(i, "the position"));
  if (p.size() != 1)
    return n.error() << "the position must be a scalar";
  int64_t pos = p[0] < 0 ? p[0] + size : p[0];
  if (pos < 0 || pos > size || (pos == size && !inclusiveEnd))
    return n.error() << "position " << p[0] << " is out of range for a "
                     << "sequence of " << size << " tensors";
  return pos;
}

LogicalResult checkElement(N &n, const Sequence &seq, Value v) {
  if (N::elementTypeOf(v) != seq.elementType)
    return n.error() << "a tensor of " << N::elementTypeOf(v)
                     << " does not fit a sequence of " << seq.elementType;
  return success();
}

LogicalResult convertSequenceEmpty(N &n) {
  MLC_TRY(dtype, n.getInt("dtype", onnx::Float));
  Type elt = onnxElementType(n.ctx, dtype);
  if (!elt)
    return n.unsupported("dtype " + onnx::dataTypeName(dtype));
  n.setOutput(0, Sequence{elt, {}});
  return success();
}

LogicalResult convertSequenceConstruct(N &n) {
  Sequence seq{N::elementTypeOf(n.input(0)), {}};
  for (unsigned i = 0; i < n.numInputs(); ++i) {
    Value v = n.input(i);
    if (!v)
      return n.error() << "input #" << i << " is missing";
    if (failed(checkElement(n, seq, v)))
      return failure();
    seq.items.push_back(v);
  }
  n.setOutput(0, seq);
  return success();
}

LogicalResult convertSequenceInsert(N &n) {
  MLC_TRY(seq, n.sequenceInput(0));
  Value v = n.input(1);
  if (failed(checkElement(n, seq, v)))
    return failure();
  int64_t pos = seq.items.size();
  if (n.hasInput(2)) {
    MLC_TRY(p, position(n, 2, seq.items.size(), /*inclusiveEnd=*/true));
    pos = p;
  }
  seq.items.insert(seq.items.begin() + pos, v);
  n.setOutput(0, seq);
  return success();
}

LogicalResult convertSequenceAt(N &n) {
  MLC_TRY(seq, n.sequenceInput(0));
  MLC_TRY(pos, position(n, 1, seq.items.size(), /*inclusiveEnd=*/false));
  n.setOutput(0, seq.items[pos]);
  return success();
}

LogicalResult convertSequenceErase(N &n) {
  MLC_TRY(seq, n.sequenceInput(0));
  if (seq.items.empty())
    return n.error() << "cannot erase from an empty sequence";
  int64_t pos = seq.items.size() - 1;
  if (n.hasInput(1)) {
    MLC_TRY(p, position(n, 1, seq.items.size(), /*inclusiveEnd=*/false));
    pos = p;
  }
  seq.items.erase(seq.items.begin() + pos);
  n.setOutput(0, seq);
  return success();
}

LogicalResult convertSequenceLength(N &n) {
  MLC_TRY(seq, n.sequenceInput(0));
  n.setOutput(0, n.i64Constant({int64_t(seq.items.size())}, {}));
  return success();
}

LogicalResult convertConcatFromSequence(N &n) {
  MLC_TRY(seq, n.sequenceInput(0));
  MLC_TRY(axis, n.getInt("axis"));
  MLC_TRY(newAxis, n.getInt("new_axis", 0));
  if (seq.items.empty())
    return n.unsupported("concatenation of an empty sequence (its shape is "
                         "unknown)");
  int64_t rank = N::rankOf(seq.items[0]) + (newAxis ? 1 : 0);
  MLC_TRY(a, n.normalizeAxis(axis, rank));
  if (newAxis)
    return out(n, stackAxis(n, seq.items, a, "sequence element"));
  return out(n, concat(n, seq.items, a));
}

LogicalResult convertSplitToSequence(N &n) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(keepdims, n.getInt("keepdims", 1));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  int64_t dim = N::shapeOf(x)[axis];
  SmallVector<int64_t> sizes;
  bool squeeze = false;
  if (!n.hasInput(1)) {
    sizes.assign(dim, 1);
    squeeze = !keepdims;
  } else {
    MLC_TRY(split, n.constantInts(1, "split"));
    if (N::rankOf(n.input(1)) == 0) {
      if (split[0] <= 0)
        return n.error() << "split " << split[0] << " must be positive";
      for (int64_t at = 0; at < dim; at += split[0])
        sizes.push_back(std::min(split[0], dim - at));
    } else {
      sizes.assign(split.begin(), split.end());
      int64_t total = 0;
      for (int64_t s : sizes) {
        if (s < 0)
          return n.error() << "split sizes must not be negative";
        total += s;
      }
      if (total != dim)
        return n.error() << "split sizes add up to " << total
                         << ", the axis has " << dim;
    }
  }
  Sequence seq{N::elementTypeOf(x), {}};
  int64_t at = 0;
  for (int64_t size : sizes) {
    MLC_TRY(piece, sliceAxis(n, x, axis, at, at + size));
    at += size;
    if (squeeze) {
      SmallVector<int64_t> shape(N::shapeOf(piece));
      shape.erase(shape.begin() + axis);
      MLC_TRY(r, reshape(n, piece, shape));
      piece = r;
    }
    seq.items.push_back(piece);
  }
  n.setOutput(0, seq);
  return success();
}

/// SequenceMap: the body once per position of the input sequence; further
/// sequence inputs are read at the same position, tensors passed whole.
LogicalResult convertSequenceMap(N &n) {
  MLC_TRY(body, n.getGraph("body"));
  MLC_TRY(first, n.sequenceInput(0));
  size_t length = first.items.size();
  SmallVector<ONNXValue> extra;
  for (unsigned i = 1; i < n.numInputs(); ++i) {
    ONNXValue v = n.anyInput(i);
    if (v.isSequence() && v.sequence.items.size() != length)
      return n.error() << "sequence input #" << i << " has "
                       << v.sequence.items.size() << " tensors, input #0 "
                       << length;
    extra.push_back(v);
  }
  std::vector<Sequence> outputs(body->outputs.size());
  for (size_t k = 0; k < length; ++k) {
    SmallVector<ONNXValue> args{first.items[k]};
    for (const ONNXValue &v : extra)
      args.push_back(v.isSequence() ? ONNXValue(v.sequence.items[k]) : v);
    MLC_TRY(results, n.importSubgraph(*body, args,
                                      "the body of SequenceMap (element " +
                                          Twine(k) + ")"));
    for (auto [j, r] : llvm::enumerate(results)) {
      if (r.isSequence())
        return n.unsupported("sequence as body output #" + Twine(j));
      if (k == 0)
        outputs[j].elementType = N::elementTypeOf(r.tensor);
      outputs[j].items.push_back(r.tensor);
    }
  }
  if (length == 0)
    return n.unsupported("an empty input sequence (the outputs' types are "
                         "unknown)");
  if (outputs.size() != n.numOutputs())
    return n.error() << "the body gives " << outputs.size()
                     << " outputs, the node has " << n.numOutputs();
  for (auto [j, seq] : llvm::enumerate(outputs))
    n.setOutput(j, seq);
  return success();
}

const OpConverter kConverters[] = {
    {"SequenceEmpty", 11, kMax, 0, "dtype", convertSequenceEmpty,
     "sequences are lists of tensors known at compile time"},
    {"SequenceConstruct", 11, kMax, 1, "", convertSequenceConstruct, ""},
    {"SequenceInsert", 11, kMax, 2, "", convertSequenceInsert,
     "compile-time position"},
    {"SequenceAt", 11, kMax, 2, "", convertSequenceAt, "compile-time position"},
    {"SequenceErase", 11, kMax, 1, "", convertSequenceErase,
     "compile-time position"},
    {"SequenceLength", 11, kMax, 1, "", convertSequenceLength, ""},
    {"ConcatFromSequence", 11, kMax, 1, "axis,new_axis",
     convertConcatFromSequence, "non-empty sequences"},
    {"SplitToSequence", 11, kMax, 1, "axis,keepdims", convertSplitToSequence,
     "compile-time split"},
    {"SequenceMap", 17, kMax, 1, "body", convertSequenceMap,
     "the body imported once per element"},
};

} // namespace

ArrayRef<OpConverter> getSequenceConverters() { return kConverters; }

} // namespace mlc::frontend
