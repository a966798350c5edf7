//===- EvaluateQuant.cpp - evaluation of the quantization ops -------------===//
//
// Mirrors lib/Conversion/GraphToLinalg/Quantization.cpp and
// IntegerContraction.cpp: quantize divides in f32, rounds half to even,
// maps NaN to 0, adds the zero point and clamps in f32 before the
// conversion; dequantize subtracts in i32 and multiplies in f32; integer
// contractions sum (x - x_zp) * (w - w_zp) modulo 2^32.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorSupport.h"

#include <cmath>

using namespace mlc::graph;

namespace mlc::graph::detail {

namespace {

/// The value of element `i` of an 8-bit or i32 tensor as an int32.
int32_t intAt(const HostTensor &t, int64_t i) {
  switch (t.getKind()) {
  case ElementKind::I8:
    return t.values<int8_t>()[i];
  case ElementKind::U8:
    return t.values<uint8_t>()[i];
  case ElementKind::I32:
    return t.values<int32_t>()[i];
  default:
    llvm::report_fatal_error("graph evaluator: not an i8, ui8 or i32 tensor");
  }
}

} // namespace

namespace {

/// Calls f(i, v, z, s) for every element i of x: v = saturate(round(x / s)
/// + z) as a float (round half to even, NaN quantizes to 0), the bounds
/// those of the zero point's 8-bit type.
template <typename F>
void forEachQuantized(const HostTensor &x, const HostTensor &scale,
                      const HostTensor &zp, F &&f) {
  bool isUnsigned = zp.getKind() == ElementKind::U8;
  float lo = isUnsigned ? 0.0f : -128.0f, hi = isUnsigned ? 255.0f : 127.0f;
  auto xv = x.values<float>(), sv = scale.values<float>();
  forEachBroadcast(x.getShape(), {&x, &scale, &zp},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     float s = sv[off[1]];
                     float q = std::nearbyint(xv[off[0]] / s);
                     if (std::isnan(q))
                       q = 0.0f;
                     float z = float(intAt(zp, off[2]));
                     f(i, std::min(std::max(q + z, lo), hi), z, s);
                   });
}

} // namespace

HostTensor quantize(const HostTensor &x, const HostTensor &scale,
                    const HostTensor &zp, ElementKind to) {
  HostTensor out(to, x.getShape());
  if (to == ElementKind::U8) {
    auto dst = out.values<uint8_t>();
    forEachQuantized(x, scale, zp, [&](int64_t i, float v, float, float) {
      dst[i] = static_cast<uint8_t>(v);
    });
  } else {
    auto dst = out.values<int8_t>();
    forEachQuantized(x, scale, zp, [&](int64_t i, float v, float, float) {
      dst[i] = static_cast<int8_t>(v);
    });
  }
  return out;
}

HostTensor fakeQuantize(const HostTensor &x, const HostTensor &scale,
                        const HostTensor &zp) {
  HostTensor out(ElementKind::F32, x.getShape());
  auto dst = out.values<float>();
  forEachQuantized(x, scale, zp, [&](int64_t i, float v, float z, float s) {
    dst[i] = (v - z) * s;
  });
  return out;
}

HostTensor dequantize(const HostTensor &x, const HostTensor &scale,
                      const HostTensor &zp) {
  HostTensor out(ElementKind::F32, x.getShape());
  auto sv = scale.values<float>();
  auto dst = out.values<float>();
  forEachBroadcast(x.getShape(), {&x, &scale, &zp},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     int32_t d = subS(intAt(x, off[0]), intAt(zp, off[2]));
                     dst[i] = float(d) * sv[off[1]];
                   });
  return out;
}

HostTensor centered(const HostTensor &x, const HostTensor &zp) {
  HostTensor out(ElementKind::I32, x.getShape());
  auto dst = out.values<int32_t>();
  forEachBroadcast(x.getShape(), {&x, &zp},
                   [&](int64_t i, ArrayRef<int64_t> off) {
                     dst[i] = intAt(x, off[0]) - intAt(zp, off[1]);
                   });
  return out;
}

} // namespace mlc::graph::detail
