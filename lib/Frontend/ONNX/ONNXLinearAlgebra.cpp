//===- ONNXLinearAlgebra.cpp - ONNX converters: Det, Einsum ---------------===//
//
// Determinants of small static matrices by cofactor expansion, Einsum as a
// broadcast product and a sum, and their rows of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <functional>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

/// Up to 4x4: the expansion has M! products (24), each M - 1 multiplies.
constexpr int64_t kMaxDetSize = 4;

LogicalResult convertDet(N &n) {
  Value x = n.input(0);
  ArrayRef<int64_t> shape = N::shapeOf(x);
  int64_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] != shape[rank - 2])
    return n.error() << "input must be [..., M, M]", failure();
  if (!isa<FloatType>(N::elementTypeOf(x)))
    return n.unsupported("non-float input");
  int64_t m = shape.back();
  if (m > kMaxDetSize)
    return n.unsupported("matrices larger than " + Twine(kMaxDetSize) + "x" +
                         Twine(kMaxDetSize));
  SmallVector<int64_t> batch(shape.drop_back(2));
  std::map<std::pair<int64_t, int64_t>, Value> elements;
  // x[..., i, j] as a tensor of the batch shape.
  auto element = [&](int64_t i, int64_t j) -> FailureOr<Value> {
    Value &e = elements[{i, j}];
    if (!e) {
      MLC_TRY(row, sliceAxis(n, x, rank - 2, i, i + 1, 1));
      MLC_TRY(one, sliceAxis(n, row, rank - 1, j, j + 1, 1));
      MLC_TRY(r, reshape(n, one, batch));
      e = r;
    }
    return e;
  };
  // det of the rows [row, m) and the given columns, along the first row.
  std::function<FailureOr<Value>(int64_t, SmallVector<int64_t>)> det =
      [&](int64_t row, SmallVector<int64_t> cols) -> FailureOr<Value> {
    if (cols.size() == 1)
      return element(row, cols[0]);
    Value sum;
    for (size_t k = 0; k < cols.size(); ++k) {
      SmallVector<int64_t> rest(cols);
      rest.erase(rest.begin() + k);
      MLC_TRY(a, element(row, cols[k]));
      MLC_TRY(minor, det(row + 1, rest));
      MLC_TRY(term, binary<graph::MulOp>(n, a, minor));
      if (!sum) {
        sum = term;
        continue;
      }
      MLC_TRY(next, k % 2 ? binary<graph::SubOp>(n, sum, term)
                          : binary<graph::AddOp>(n, sum, term));
      sum = next;
    }
    return sum;
  };
  return out(n, det(0, iota(m)));
}

/// Einsum as one broadcast product and a sum over the contracted letters.
/// "..." becomes placeholder letters for the broadcast dims (aligned from
/// the right, as numpy does); a letter repeated within one operand takes
/// that operand's diagonal first (x times an identity mask, summed over the
/// second occurrence). Each operand is then transposed into a global letter
/// order (output letters first) with unit dims for the letters it lacks.
LogicalResult convertEinsum(N &n) {
  MLC_TRY(eq, n.getString("equation"));
  std::string e;
  for (char c : eq)
    if (c != ' ')
      e += c;
  size_t arrow = e.find("->");
  std::string lhs = e.substr(0, arrow);
  SmallVector<StringRef> parts;
  StringRef(lhs).split(parts, ',');
  if (parts.size() != n.numInputs())
    return n.error() << "equation '" << eq << "' has " << parts.size()
                     << " operands but the node has " << n.numInputs(),
           failure();
  // Every operand is required (an omitted one is an empty name).
  for (unsigned i = 0; i < n.numInputs(); ++i)
    if (!n.input(i))
      return n.error() << "missing input #" << i, failure();
  // Placeholders for "...": characters no equation letter can be.
  const std::string dots = "0123456789";
  std::vector<std::string> terms;
  size_t ellipsisRank = 0;
  for (auto [i, part] : llvm::enumerate(parts)) {
    std::string t = part.str();
    size_t at = t.find("...");
    if (at == std::string::npos) {
      terms.push_back(t);
      continue;
    }
    int64_t explicitDims = t.size() - 3;
    int64_t k = N::rankOf(n.input(i)) - explicitDims;
    if (k < 0 || t.find("...", at + 3) != std::string::npos)
      return n.error() << "operand " << i << " does not fit '" << part << "'",
             failure();
    if (k > int64_t(dots.size()))
      return n.unsupported("an ellipsis over more than 10 dims");
    ellipsisRank = std::max<size_t>(ellipsisRank, k);
    // Right-aligned: the operand's k dims are the last k placeholders;
    // fixed up below once the widest ellipsis is known.
    terms.push_back(t.substr(0, at) + std::string(k, '#') + t.substr(at + 3));
  }
  std::string dotsUsed = dots.substr(0, ellipsisRank);
  for (std::string &t : terms) {
    size_t k = std::count(t.begin(), t.end(), '#');
    size_t first = t.find('#');
    for (size_t j = 0; j < k; ++j)
      t[first + j] = dotsUsed[ellipsisRank - k + j];
  }
  std::string outTerm;
  if (arrow != std::string::npos) {
    outTerm = e.substr(arrow + 2);
    size_t at = outTerm.find("...");
    if (at != std::string::npos)
      outTerm.replace(at, 3, dotsUsed);
  } else {
    // Implicit output: the ellipsis dims, then letters used once,
    // alphabetically.
    std::map<char, int> count;
    for (const std::string &t : terms)
      for (char c : t)
        if (!llvm::is_contained(dotsUsed, c))
          ++count[c];
    outTerm = dotsUsed;
    for (auto [c, k] : count)
      if (k == 1)
        outTerm += c;
  }
  std::string order = outTerm;
  for (const std::string &t : terms)
    for (char c : t)
      if (order.find(c) == std::string::npos)
        order += c;
  std::map<char, int64_t> sizes;
  Value product;
  for (auto [i, termRef] : llvm::enumerate(terms)) {
    std::string term = termRef;
    Value x = n.input(i);
    if (term.size() != size_t(N::rankOf(x)))
      return n.error() << "operand " << i << " has rank " << N::rankOf(x)
                       << " but '" << parts[i] << "' names " << term.size()
                       << " dims",
             failure();
    // Diagonals: a second occurrence of a letter is summed away against
    // an identity mask over the two dims.
    for (size_t p = 0; p < term.size(); ++p) {
      size_t q;
      while ((q = term.find(term[p], p + 1)) != std::string::npos) {
        ArrayRef<int64_t> shape = N::shapeOf(x);
        if (shape[p] != shape[q])
          return n.error() << "index '" << term[p] << "' has sizes " << shape[p]
                           << " and " << shape[q] << " in operand " << i,
                 failure();
        SmallVector<int64_t> maskShape(shape.size(), 1);
        maskShape[p] = maskShape[q] = shape[p];
        SmallVector<double> eye(shape[p] * shape[p], 0.0);
        for (int64_t d = 0; d < shape[p]; ++d)
          eye[d * shape[p] + d] = 1.0;
        Value mask = n.constant(
            RankedTensorType::get(maskShape, N::elementTypeOf(x)), eye);
        MLC_TRY(masked, binary<graph::MulOp>(n, x, mask));
        MLC_TRY(diag,
                reduce<graph::ReduceSumOp>(n, masked, {int64_t(q)}, false));
        x = diag;
        term.erase(q, 1);
      }
    }
    ArrayRef<int64_t> shape = N::shapeOf(x);
    SmallVector<int64_t> perm, full;
    for (char c : order) {
      size_t pos = term.find(c);
      if (pos == std::string::npos) {
        full.push_back(1);
        continue;
      }
      // Broadcast dims (size 1) take the other operands' size.
      auto [it, inserted] = sizes.insert({c, shape[pos]});
      if (!inserted && it->second != shape[pos]) {
        if (it->second != 1 && shape[pos] != 1)
          return n.error() << "index '" << c << "' has sizes " << it->second
                           << " and " << shape[pos],
                 failure();
        it->second = std::max(it->second, shape[pos]);
      }
      perm.push_back(pos);
      full.push_back(shape[pos]);
    }
    MLC_TRY(t, transpose(n, x, perm));
    MLC_TRY(r, reshape(n, t, full));
    if (!product) {
      product = r;
      continue;
    }
    MLC_TRY(p, binary<graph::MulOp>(n, product, r));
    product = p;
  }
  for (char c : outTerm)
    if (!sizes.count(c))
      return n.error() << "output index '" << c << "' is not an input index",
             failure();
  // A lone operand's broadcast dims of size 1 stay 1: the shape is right.
  if (order.size() == outTerm.size())
    return out(n, reshape(n, product, N::shapeOf(product)));
  return out(n,
             reduce<graph::ReduceSumOp>(
                 n, product,
                 iota(order.size() - outTerm.size(), outTerm.size()), false));
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Einsum", 12, kMax, 1, "equation", convertEinsum,
     "a broadcast product and a sum; ellipses, diagonals"},
    {"Det", 11, kMax, 1, "", convertDet,
     "float; up to 4x4 (cofactor expansion)"},
};

} // namespace

ArrayRef<OpConverter> getLinearAlgebraConverters() { return kConverters; }

} // namespace mlc::frontend
