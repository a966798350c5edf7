//===- FiniteEpilogues.cpp - no-NaN flags where the values are finite -----===//
//
// An integer kernel's epilogue starts from int32 sums, so its float values
// (the sums converted, scaled by constants, a constant bias added, clamped,
// divided by a constant scale, rounded) are finite whatever the input: no
// NaN can reach its max, min or NaN test. Their NaN-propagating forms cost
// a compare and a blend per vector on x86 (14% of MobileNetV2 int8). Bounds
// on magnitudes, propagated through the body in double with a wide margin
// for rounding, prove finiteness; the ops whose float operands are all
// proven finite get the `nnan` fast-math flag, which keeps their results
// exact (NaN is the only input it changes).
//
//===----------------------------------------------------------------------===//

#include "IntegerKernelUtils.h"
#include "mlc/Codegen/Common/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();
/// Magnitudes below this stay finite in f32 after any rounding on the way
/// (FLT_MAX is 3.4e38).
constexpr double kFinite = 1e37;

/// The float elements of a group operand that is a constant, reshaped or
/// not (a scale or zero point reshaped for broadcasting): the magnitudes
/// are what matter, not the shape.
std::optional<graph::HostTensor> constantValues(graph::FusionGroupOp group,
                                                Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == &group.getBody().front())
    v = group.getInputs()[arg.getArgNumber()];
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
             tensor::CastOp>(def))
      break;
    v = def->getOperand(0);
  }
  std::optional<graph::HostTensor> t = groupConstantTensor(group, v);
  if (!t || t->getKind() != graph::ElementKind::F32)
    return std::nullopt;
  return t;
}

/// The largest and smallest magnitudes of a constant operand's elements:
/// (unbounded, 0) if any is not finite or the operand is no constant.
std::pair<double, double> constantRange(graph::FusionGroupOp group, Value v) {
  std::optional<graph::HostTensor> t = constantValues(group, v);
  if (!t)
    return {kUnbounded, 0.0};
  double hi = 0, lo = kUnbounded;
  for (float x : t->values<float>()) {
    if (!std::isfinite(x))
      return {kUnbounded, 0.0};
    hi = std::max(hi, double(std::fabs(x)));
    lo = std::min(lo, double(std::fabs(x)));
  }
  return {hi, lo == kUnbounded ? 0.0 : lo};
}

double attrBound(Attribute attr) {
  auto dense = dyn_cast<DenseFPElementsAttr>(attr);
  if (auto f = dyn_cast<FloatAttr>(attr))
    return std::isfinite(f.getValueAsDouble()) ? std::fabs(f.getValueAsDouble())
                                               : kUnbounded;
  if (!dense)
    return kUnbounded;
  double bound = 0;
  for (APFloat x : dense.getValues<APFloat>()) {
    double d = x.convertToDouble();
    if (!std::isfinite(d))
      return kUnbounded;
    bound = std::max(bound, std::fabs(d));
  }
  return bound;
}

/// The smallest magnitude of a constant divisor: a float constant (in the
/// body or outside it) or an argument read from a constant (`argMin`); 0
/// if unknown.
double divisorFloor(Value v, ArrayRef<double> argMin) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getArgNumber() < argMin.size() ? argMin[arg.getArgNumber()]
                                              : 0.0;
  auto c = v.getDefiningOp<arith::ConstantOp>();
  auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
  return f ? std::fabs(f.getValueAsDouble()) : 0.0;
}

} // namespace

void mlc::codegen::int8::assumeFiniteEpilogue(graph::FusionGroupOp group,
                                              linalg::GenericOp epilogue,
                                              ArrayRef<EpilogueInput> inputs) {
  Block &body = epilogue.getRegion().front();
  DenseMap<Value, double> bound;
  SmallVector<double> argMin(inputs.size(), 0.0);
  for (auto [k, in] : llvm::enumerate(inputs)) {
    BlockArgument arg = body.getArgument(k);
    if (auto it = dyn_cast<IntegerType>(arg.getType())) {
      bound[arg] = std::ldexp(1.0, it.getWidth());
      continue;
    }
    // The kernel's own result is an integer kernel's int32 sums; anything
    // else float is finite only as a constant.
    if (!in.tensor) {
      bound[arg] = kUnbounded;
      continue;
    }
    std::tie(bound[arg], argMin[k]) = constantRange(group, in.tensor);
  }
  // Values of the body's ops and arguments, or constants from outside it
  // (scalars the body uses in every lane).
  auto of = [&](Value v) {
    auto it = bound.find(v);
    if (it != bound.end())
      return it->second;
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      return attrBound(c.getValue());
    return kUnbounded;
  };
  for (Operation &op : body.without_terminator()) {
    double b = kUnbounded;
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      b = isa<IntegerType>(c.getType())
              ? std::ldexp(1.0, c.getType().getIntOrFloatBitWidth())
              : attrBound(c.getValue());
    } else if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
      auto it = cast<IntegerType>(op.getOperand(0).getType());
      b = std::ldexp(1.0, it.getWidth());
    } else if (isa<arith::AddFOp, arith::SubFOp>(op)) {
      b = of(op.getOperand(0)) + of(op.getOperand(1));
    } else if (isa<arith::MulFOp>(op)) {
      b = of(op.getOperand(0)) * of(op.getOperand(1));
    } else if (isa<arith::DivFOp>(op)) {
      double d = divisorFloor(op.getOperand(1), argMin);
      b = d > 0 ? of(op.getOperand(0)) / d : kUnbounded;
    } else if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                   arith::MinNumFOp>(op)) {
      b = std::max(of(op.getOperand(0)), of(op.getOperand(1)));
    } else if (isa<arith::NegFOp, math::AbsFOp>(op)) {
      b = of(op.getOperand(0));
    } else if (isa<math::RoundEvenOp, math::RoundOp, math::FloorOp,
                   math::CeilOp, math::TruncOp>(op)) {
      b = of(op.getOperand(0)) + 1;
    } else if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      b = std::max(of(sel.getTrueValue()), of(sel.getFalseValue()));
    } else if (op.getNumResults() == 1 &&
               isa<IntegerType>(op.getResult(0).getType())) {
      b = std::ldexp(1.0, op.getResult(0).getType().getIntOrFloatBitWidth());
    }
    if (op.getNumResults() == 1)
      bound[op.getResult(0)] = b;
    // Every float operand finite: no NaN in, none out of these.
    auto fm = dyn_cast<arith::ArithFastMathInterface>(op);
    bool finite = llvm::all_of(op.getOperands(), [&](Value v) {
      return !isa<FloatType>(v.getType()) || of(v) < kFinite;
    });
    if (fm && finite &&
        isa<arith::MaximumFOp, arith::MinimumFOp, arith::CmpFOp>(op))
      op.setAttr(fm.getFastMathAttrName(),
                 arith::FastMathFlagsAttr::get(
                     op.getContext(), fm.getFastMathFlagsAttr().getValue() |
                                          arith::FastMathFlags::nnan));
  }
}
