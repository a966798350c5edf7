//===- ONNXLinearAlgebra.cpp - ONNX converters: Det -----------------------===//
//
// Determinants of small static matrices by cofactor expansion, and their
// row of the converter table (getONNXConverters, docs/supported-ops.md).
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

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Det", 11, kMax, 1, "", convertDet,
     "float; up to 4x4 (cofactor expansion)"},
};

} // namespace

ArrayRef<OpConverter> getLinearAlgebraConverters() { return kConverters; }

} // namespace mlc::frontend
