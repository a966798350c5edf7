//===- ONNXResize.cpp - ONNX converters: Resize, Upsample -----------------===//
//
// The converters for Resize and Upsample (one graph.resize with tap tables
// computed here as ONNX's reference does), and their rows of the converter
// table (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Resize: per-axis tap tables
//===----------------------------------------------------------------------===//

struct ResizeAttrs {
  std::string mode = "nearest", coord = "half_pixel",
              nearestMode = "round_prefer_floor";
  double cubicA = -0.75, extrapolation = 0;
  bool excludeOutside = false;
};

/// Coefficients for the taps left of and right of x (ONNX's reference).
SmallVector<double> resizeCoeffs(const ResizeAttrs &a, double ratio) {
  if (a.mode == "nearest") {
    if (ratio == 1.0)
      return {0, 1};
    if (a.nearestMode == "round_prefer_floor")
      return {double(ratio <= 0.5), double(ratio > 0.5)};
    if (a.nearestMode == "round_prefer_ceil")
      return {double(ratio < 0.5), double(ratio >= 0.5)};
    if (a.nearestMode == "floor")
      return {1, 0};
    return {0, 1};
  }
  if (a.mode == "linear")
    return {1 - ratio, ratio};
  double A = a.cubicA, r = ratio, q = 1 - ratio;
  return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
          ((A + 2) * r - (A + 3)) * r * r + 1,
          ((A + 2) * q - (A + 3)) * q * q + 1,
          ((A * (q + 1) - 5 * A) * (q + 1) + 8 * A) * (q + 1) - 4 * A};
}

/// The taps of one axis: per output position, (input index, coefficient)
/// pairs with distinct indices and nonzero coefficients, and whether the
/// position extrapolates (tf_crop_and_resize outside the roi).
struct AxisTaps {
  SmallVector<SmallVector<std::pair<int64_t, double>, 4>> taps;
  SmallVector<bool> extra;
  int64_t width() const {
    size_t w = 1;
    for (const auto &t : taps)
      w = std::max(w, t.size());
    return w;
  }
};

AxisTaps resizeTaps(const ResizeAttrs &a, int64_t in, int64_t outLen,
                    double scaleFactor, double roiStart, double roiEnd) {
  AxisTaps r;
  r.taps.resize(outLen);
  r.extra.assign(outLen, false);
  double outWidth = scaleFactor * in;
  for (int64_t x = 0; x < outLen; ++x) {
    double xo;
    const std::string &c = a.coord;
    if (c == "align_corners")
      xo = outWidth == 1 ? 0 : x * double(in - 1) / (outWidth - 1);
    else if (c == "asymmetric")
      xo = x / scaleFactor;
    else if (c == "tf_crop_and_resize") {
      xo = outWidth == 1 ? (roiEnd - roiStart) * (in - 1) / 2
                         : x * (roiEnd - roiStart) * (in - 1) / (outWidth - 1);
      xo += roiStart * (in - 1);
      if (xo < 0 || xo > in - 1) {
        r.extra[x] = true;
        continue;
      }
    } else if (c == "pytorch_half_pixel")
      xo = outWidth == 1 ? -0.5 : (x + 0.5) / scaleFactor - 0.5;
    else if (c == "tf_half_pixel_for_nn")
      xo = (x + 0.5) / scaleFactor;
    else
      xo = (x + 0.5) / scaleFactor - 0.5;
    double fl = std::floor(xo);
    double ratio = xo == fl ? 1.0 : xo - fl;
    SmallVector<double> coeffs = resizeCoeffs(a, ratio);
    int64_t taps = coeffs.size();
    // The `taps` nearest indices of the edge-padded input (ties: lower).
    int64_t pad = (taps + 1) / 2;
    double xp = xo + pad;
    SmallVector<int64_t> cand;
    for (int64_t i = int64_t(std::floor(xp)) - taps - 1;
         i <= int64_t(std::floor(xp)) + taps + 1; ++i)
      if (i >= 0 && i < in + 2 * pad)
        cand.push_back(i);
    llvm::stable_sort(cand, [&](int64_t p, int64_t q) {
      double dp = std::fabs(xp - p), dq = std::fabs(xp - q);
      return dp != dq ? dp < dq : p < q;
    });
    cand.resize(std::min<size_t>(cand.size(), taps));
    llvm::sort(cand);
    if (a.excludeOutside) {
      double sum = 0;
      for (int64_t t = 0; t < taps; ++t) {
        int64_t idx = cand[t] - pad;
        if (idx < 0 || idx >= in)
          coeffs[t] = 0;
        sum += coeffs[t];
      }
      for (double &cf : coeffs)
        cf /= sum;
    }
    // Edge padding repeats the border element: merge equal indices.
    auto &row = r.taps[x];
    for (int64_t t = 0; t < taps; ++t) {
      int64_t idx = std::clamp<int64_t>(cand[t] - pad, 0, in - 1);
      auto *it = llvm::find_if(row, [&](auto &p) { return p.first == idx; });
      if (it != row.end())
        it->second += coeffs[t];
      else
        row.push_back({idx, coeffs[t]});
    }
    llvm::erase_if(row, [](auto &p) { return p.second == 0.0; });
  }
  return r;
}

/// One graph.resize for all non-identity axes (one kernel, no
/// intermediate), then the extrapolation value where any axis extrapolates.
LogicalResult resizeWith(N &n, Value x, const ResizeAttrs &a,
                         ArrayRef<double> scales, ArrayRef<int64_t> sizes,
                         ArrayRef<double> roi) {
  ArrayRef<int64_t> shape = N::shapeOf(x);
  int64_t rank = shape.size();
  Type elt = N::elementTypeOf(x);
  if (!isa<FloatType>(elt))
    return n.unsupported("non-float input");
  SmallVector<int64_t> axes, outShape(shape);
  SmallVector<AxisTaps> perAxis;
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t in = shape[axis];
    double sc = scales.empty() ? double(sizes[axis]) / in : scales[axis];
    int64_t outLen = sizes.empty() ? int64_t(std::floor(in * sc)) : sizes[axis];
    if (outLen <= 0)
      return n.unsupported("zero-size result");
    double rs = roi.empty() ? 0 : roi[axis],
           re = roi.empty() ? 1 : roi[axis + rank];
    AxisTaps t = resizeTaps(a, in, outLen, sc, rs, re);
    bool identity = outLen == in && !llvm::is_contained(t.extra, true);
    for (int64_t i = 0; identity && i < in; ++i)
      identity = t.taps[i].size() == 1 && t.taps[i][0].first == i &&
                 t.taps[i][0].second == 1.0;
    if (identity)
      continue;
    axes.push_back(axis);
    outShape[axis] = outLen;
    perAxis.push_back(std::move(t));
  }
  if (axes.empty()) {
    n.setOutput(0, x);
    return success();
  }
  SmallVector<Value> operands = {x}, weights;
  for (const AxisTaps &t : perAxis) {
    int64_t width = t.width(), outLen = t.taps.size();
    // [taps, out]; missing taps read the first index with weight 0.
    SmallVector<int64_t> idx(width * outLen, 0);
    SmallVector<double> w(width * outLen, 0.0);
    for (int64_t o = 0; o < outLen; ++o)
      for (int64_t k = 0; k < width; ++k) {
        const auto &row = t.taps[o];
        if (k < int64_t(row.size())) {
          idx[k * outLen + o] = row[k].first;
          w[k * outLen + o] = row[k].second;
        } else if (!row.empty()) {
          idx[k * outLen + o] = row[0].first;
        }
      }
    operands.push_back(n.i64Constant(idx, {width, outLen}));
    weights.push_back(
        n.constant(RankedTensorType::get({width, outLen}, elt), w));
  }
  operands.append(weights);
  MLC_TRY(r, n.emit<graph::ResizeOp>(operands, {n.arrayAttr("axes", axes)}));
  bool extrapolates = llvm::any_of(perAxis, [](const AxisTaps &t) {
    return llvm::is_contained(t.extra, true);
  });
  if (!extrapolates) {
    n.setOutput(0, r);
    return success();
  }
  // extrapolation_value wherever any axis is outside the roi (the tables
  // give 0 there).
  SmallVector<int64_t> eshape(rank, 1);
  for (int64_t axis : axes)
    eshape[axis] = outShape[axis];
  SmallVector<double> e(product(eshape), 0.0);
  SmallVector<int64_t> pos(axes.size(), 0);
  for (double &v : e) {
    bool any = false;
    for (auto [k, t] : llvm::enumerate(perAxis))
      any |= t.extra[pos[k]];
    v = any ? a.extrapolation : 0.0;
    for (int64_t k = axes.size() - 1; k >= 0; --k) {
      if (++pos[k] < outShape[axes[k]])
        break;
      pos[k] = 0;
    }
  }
  MLC_TRY(sum, binary<graph::AddOp>(
                   n, r, n.constant(RankedTensorType::get(eshape, elt), e)));
  n.setOutput(0, sum);
  return success();
}

LogicalResult convertResize(N &n) {
  ResizeAttrs a;
  MLC_TRY(mode, n.getString("mode", std::string("nearest")));
  MLC_TRY(coord, n.getString("coordinate_transformation_mode",
                             std::string("half_pixel")));
  MLC_TRY(nearest,
          n.getString("nearest_mode", std::string("round_prefer_floor")));
  MLC_TRY(cubicA, n.getFloat("cubic_coeff_a", -0.75f));
  MLC_TRY(excl, n.getInt("exclude_outside", 0));
  MLC_TRY(extra, n.getFloat("extrapolation_value", 0.0f));
  a.mode = mode;
  a.coord = coord;
  a.nearestMode = nearest;
  a.cubicA = cubicA;
  a.excludeOutside = excl;
  a.extrapolation = extra;
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return n.unsupported("mode '" + mode + "'");
  static const char *coords[] = {"half_pixel",           "pytorch_half_pixel",
                                 "align_corners",        "asymmetric",
                                 "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (!llvm::is_contained(coords, coord))
    return n.unsupported("coordinate_transformation_mode '" + coord + "'");
  static const char *nearestModes[] = {"round_prefer_floor",
                                       "round_prefer_ceil", "floor", "ceil"};
  if (!llvm::is_contained(nearestModes, nearest))
    return n.unsupported("nearest_mode '" + nearest + "'");
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  SmallVector<double> scales, roi;
  SmallVector<int64_t> sizes;
  auto scalesInput = [&]() -> FailureOr<SmallVector<double>> {
    if (!n.hasInput(2))
      return SmallVector<double>();
    // An empty tensor means "not given" (opset 11-12 require the input).
    if (auto c = n.tryConstant(n.input(2)))
      if (c->getNumElements() == 0)
        return SmallVector<double>();
    return n.constantFloats(2, "scales");
  };
  MLC_TRY(sc, scalesInput());
  scales = sc;
  if (n.hasInput(3)) {
    MLC_TRY(sz, n.constantInts(3, "sizes"));
    sizes = sz;
  }
  if (scales.empty() == sizes.empty())
    return n.error() << "exactly one of scales and sizes must be given",
           failure();
  if ((!scales.empty() && int64_t(scales.size()) != rank) ||
      (!sizes.empty() && int64_t(sizes.size()) != rank))
    return n.error() << "scales/sizes must have one entry per dimension",
           failure();
  if (coord == "tf_crop_and_resize") {
    MLC_TRY(r, n.constantFloats(1, "roi"));
    if (int64_t(r.size()) != 2 * rank)
      return n.error() << "roi must have 2 * rank entries", failure();
    roi = r;
  }
  return resizeWith(n, x, a, scales, sizes, roi);
}

LogicalResult convertUpsample(N &n) {
  ResizeAttrs a;
  MLC_TRY(mode, n.getString("mode", std::string("nearest")));
  if (mode != "nearest" && mode != "linear")
    return n.unsupported("mode '" + mode + "'");
  a.mode = mode;
  a.coord = "asymmetric";
  a.nearestMode = "floor";
  SmallVector<double> scales;
  if (n.opset >= 9) {
    MLC_TRY(s, n.constantFloats(1, "scales"));
    scales = s;
  } else {
    MLC_TRY(s, n.getFloats("scales"));
    for (float f : s)
      scales.push_back(f);
  }
  if (int64_t(scales.size()) != N::rankOf(n.input(0)))
    return n.error() << "scales must have one entry per dimension", failure();
  return resizeWith(n, n.input(0), a, scales, {}, {});
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Resize", 11, kMax, 1,
     "mode,coordinate_transformation_mode,nearest_mode,cubic_coeff_a,"
     "exclude_outside,extrapolation_value",
     convertResize,
     "all modes; scales/sizes/roi must be constant; one graph.resize"},
    {"Upsample", 7, 9, 1, "mode,scales", convertUpsample, "nearest, linear"},
};

} // namespace

ArrayRef<OpConverter> getResizeConverters() { return kConverters; }

} // namespace mlc::frontend
