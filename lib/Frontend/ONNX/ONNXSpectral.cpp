//===- ONNXSpectral.cpp - ONNX converters: DFT ----------------------------===//
//
// The discrete Fourier transform over a static length as two matmuls with
// constant cosine and sine matrices, and its row of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>

using namespace mlir;

namespace mlc::frontend {
namespace {

/// x[..., part] without the last dim: the real (0) or imaginary (1) part.
FailureOr<Value> complexPart(N &n, Value x, int64_t part) {
  ArrayRef<int64_t> s = N::shapeOf(x);
  MLC_TRY(p, sliceAxis(n, x, s.size() - 1, part, part + 1, 1));
  return reshape(n, p, s.drop_back());
}

/// y = x @ m over the last dim of x (rank >= 1), with m a constant
/// [in, out] matrix given row-major.
FailureOr<Value> applyMatrix(N &n, Value x, int64_t in, int64_t out,
                             ArrayRef<double> m) {
  ArrayRef<int64_t> s = N::shapeOf(x);
  int64_t rows = product(s.drop_back());
  MLC_TRY(flat, reshape(n, x, {rows, in}));
  auto type = RankedTensorType::get({in, out}, N::elementTypeOf(x));
  MLC_TRY(y, binary<graph::MatMulOp>(n, flat, n.constant(type, m)));
  SmallVector<int64_t> shape(s.drop_back());
  shape.push_back(out);
  return reshape(n, y, shape);
}

LogicalResult convertDFT(N &n) {
  Value x = n.input(0);
  ArrayRef<int64_t> shape = N::shapeOf(x);
  int64_t rank = shape.size();
  if (!isa<FloatType>(N::elementTypeOf(x)) || N::elementTypeOf(x).isBF16() ||
      N::elementTypeOf(x).isF16())
    return n.unsupported("non-f32/f64 input");
  if (rank < 3 || (shape.back() != 1 && shape.back() != 2))
    return n.error() << "input must be [batch, signal..., 1 or 2], got rank "
                     << rank,
           failure();
  MLC_TRY(axisAttr, n.getInt("axis", 1));
  MLC_TRY(inverse, n.getInt("inverse", 0));
  MLC_TRY(onesided, n.getInt("onesided", 0));
  int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  if (axis < 0 || axis > rank - 2)
    return n.error() << "axis " << axisAttr << " is not a signal axis of a "
                     << "rank-" << rank << " input",
           failure();
  int64_t in = shape[axis], length = in;
  if (n.hasInput(1)) {
    MLC_TRY(l, n.constantInts(1, "dft_length"));
    if (l.size() != 1 || l[0] <= 0)
      return n.error() << "dft_length must be one positive value", failure();
    length = l[0];
  }
  if (onesided && (inverse || shape.back() == 2))
    return n.unsupported("onesided with an inverse or complex DFT");
  int64_t bins = onesided ? length / 2 + 1 : length;

  // Yr = xr C - s xi S, Yi = xi C + s xr S, with C = cos and S = sin of
  // 2 pi j k / length and s = +1 (inverse) or -1; the inverse scales by
  // 1 / length. Rows j >= length truncate the signal (zero), and inputs
  // shorter than length are zero-padded (no rows).
  SmallVector<double> c(in * bins, 0.0), sn(in * bins, 0.0);
  double scale = inverse ? 1.0 / double(length) : 1.0;
  for (int64_t j = 0; j < std::min(in, length); ++j)
    for (int64_t k = 0; k < bins; ++k) {
      // j * k mod length keeps the angle small and exact.
      double angle = 2.0 * M_PI * double((j * k) % length) / double(length);
      c[j * bins + k] = std::cos(angle) * scale;
      sn[j * bins + k] = std::sin(angle) * scale * (inverse ? 1.0 : -1.0);
    }

  // The signal axis last: parts of rank - 1, axis moved to the end.
  SmallVector<int64_t> perm, back(rank - 1);
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  for (int64_t d = 0; d < rank - 1; ++d)
    back[perm[d]] = d;
  MLC_TRY(re, complexPart(n, x, 0));
  MLC_TRY(reT, transpose(n, re, perm));
  MLC_TRY(yr, applyMatrix(n, reT, in, bins, c));
  MLC_TRY(yi, applyMatrix(n, reT, in, bins, sn));
  if (shape.back() == 2) {
    MLC_TRY(im, complexPart(n, x, 1));
    MLC_TRY(imT, transpose(n, im, perm));
    MLC_TRY(ic, applyMatrix(n, imT, in, bins, c));
    MLC_TRY(is, applyMatrix(n, imT, in, bins, sn));
    MLC_TRY(r2, binary<graph::SubOp>(n, yr, is));
    MLC_TRY(i2, binary<graph::AddOp>(n, ic, yi));
    yr = r2;
    yi = i2;
  }
  SmallVector<Value> parts;
  for (Value p : {Value(yr), Value(yi)}) {
    MLC_TRY(pb, transpose(n, p, back));
    SmallVector<int64_t> s(N::shapeOf(pb));
    s.push_back(1);
    MLC_TRY(p1, reshape(n, pb, s));
    parts.push_back(p1);
  }
  return out(n, concat(n, parts, rank - 1));
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"DFT", 17, kMax, 1, "axis,inverse,onesided", convertDFT,
     "f32/f64; as matmuls with constant cos/sin matrices; dft_length a "
     "compile-time constant"},
};

} // namespace

ArrayRef<OpConverter> getSpectralConverters() { return kConverters; }

} // namespace mlc::frontend
