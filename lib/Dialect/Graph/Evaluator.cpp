//===- Evaluator.cpp - reference evaluation of graph ops ------------------===//
//
// Every kernel here mirrors one pattern of lib/Conversion/GraphToLinalg: the
// same accumulator type and initial value, reductions in row-major order of
// the reduced dims, the same scalar formula with the same float roundings and
// the same libm function. This file is compiled with -ffp-contract=off: the
// lowered kernels use separate mulf/addf without the contract flag, so a
// fused multiply-add here would differ in the last bit.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Evaluator.h"
#include "EvaluateBlocked.h"
#include "EvaluateUpsampling.h"
#include "EvaluatorSupport.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <math.h>

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::graph::detail;

namespace {

/// A logical op on bool tensors (stored as 0/1 bytes).
template <typename Fn>
HostTensor logical(const HostTensor &a, const HostTensor &b,
                   ArrayRef<int64_t> outShape, Fn &&fn) {
  return mapBinary<uint8_t, uint8_t, uint8_t>(
      a, b, outShape, ElementKind::I1,
      [&](uint8_t x, uint8_t y) -> uint8_t { return fn(x, y); });
}

HostTensor compare(CompareOp op, const HostTensor &a, const HostTensor &b,
                   ArrayRef<int64_t> outShape) {
  ComparePredicate pred = op.getPredicate();
  return dispatchNumeric(a.getKind(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return mapBinary<uint8_t, T, T>(
        a, b, outShape, ElementKind::I1,
        [&](T x, T y) -> uint8_t { return compareS(pred, x, y); });
  });
}

using FloatFn = float (*)(float);

/// The libm function that a float op's math op (an LLVM intrinsic or a libm
/// call once lowered) ends up calling; null for other ops.
FloatFn libmFunction(Operation *op) {
  // One .Case per macro use.
  // clang-format off
#define MLC_LIBM(OP, FN)                                                       \
  .Case([](OP) -> FloatFn { return [](float x) { return FN(x); }; })
  return llvm::TypeSwitch<Operation *, FloatFn>(op)
      MLC_LIBM(SinOp, sinf) MLC_LIBM(CosOp, cosf) MLC_LIBM(TanOp, tanf)
      MLC_LIBM(AsinOp, asinf) MLC_LIBM(AcosOp, acosf) MLC_LIBM(AtanOp, atanf)
      MLC_LIBM(SinhOp, sinhf) MLC_LIBM(CoshOp, coshf)
      MLC_LIBM(AsinhOp, asinhf) MLC_LIBM(AcoshOp, acoshf)
      MLC_LIBM(AtanhOp, atanhf) MLC_LIBM(FloorOp, floorf)
      MLC_LIBM(CeilOp, ceilf) MLC_LIBM(RoundOp, roundevenf)
      .Default([](Operation *) -> FloatFn { return nullptr; });
#undef MLC_LIBM
  // clang-format on
}

/// The result of a region-free graph op other than graph.constant, whose
/// operands have been checked against its operand types.
FailureOr<HostTensor> evaluateGraphOp(Operation *op, ArrayRef<HostTensor> in,
                                      RankedTensorType resultType,
                                      std::string *error) {
  ArrayRef<int64_t> shape = resultType.getShape();
  // Pooling in the blocked layout [N, C / B, H, W, B]: in NCHW, then back.
  if (isa<MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp>(op) && shape.size() == 5) {
    SmallVector<int64_t> plainShape = {shape[0], shape[1] * shape[4], shape[2],
                                       shape[3]};
    FailureOr<HostTensor> r = evaluateGraphOp(
        op, {unblockChannels(in[0])},
        RankedTensorType::get(plainShape, resultType.getElementType()), error);
    if (failed(r))
      return failure();
    return blockChannels(*r, shape[4]);
  }
  auto bin = [&](auto fn) { return binaryNumeric(in[0], in[1], shape, fn); };
  auto un = [&](auto fn) { return unaryNumeric(in[0], fn); };
  auto fl = [&](float (*fn)(float)) { return unaryFloat(in[0], fn); };
  if (FloatFn fn = libmFunction(op))
    return fl(fn);
  return llvm::TypeSwitch<Operation *, FailureOr<HostTensor>>(op)
      .Case(
          [&](AddOp) { return bin([](auto a, auto b) { return addS(a, b); }); })
      .Case(
          [&](SubOp) { return bin([](auto a, auto b) { return subS(a, b); }); })
      .Case(
          [&](MulOp) { return bin([](auto a, auto b) { return mulS(a, b); }); })
      .Case(
          [&](DivOp) { return bin([](auto a, auto b) { return divS(a, b); }); })
      .Case(
          [&](MaxOp) { return bin([](auto a, auto b) { return maxS(a, b); }); })
      .Case(
          [&](MinOp) { return bin([](auto a, auto b) { return minS(a, b); }); })
      .Case([&](ModOp m) {
        bool fmod = m.getFmod();
        return bin([fmod](auto a, auto b) { return modS(a, b, fmod); });
      })
      .Case(
          [&](PowOp) { return bin([](auto a, auto b) { return powS(a, b); }); })
      .Case([&](NegOp) { return un([](auto a) { return negS(a); }); })
      .Case([&](AbsOp) { return un([](auto a) { return absS(a); }); })
      .Case([&](ReluOp) {
        return un([](auto a) { return maxS(a, decltype(a)(0)); });
      })
      .Case([&](ExpOp) { return fl([](float x) { return expf(x); }); })
      .Case([&](LogOp) { return fl([](float x) { return logf(x); }); })
      .Case([&](SqrtOp) { return fl([](float x) { return sqrtf(x); }); })
      .Case([&](RsqrtOp) { return fl(rsqrtF); })
      .Case([&](TanhOp) { return fl([](float x) { return tanhf(x); }); })
      .Case([&](ErfOp) { return fl([](float x) { return erff(x); }); })
      .Case([&](SigmoidOp) { return fl(sigmoidF); })
      .Case([&](SignOp) { return un([](auto a) { return signS(a); }); })
      .Case([&](GeluOp g) {
        return fl(g.getTanhApproximation() ? geluTanhF : geluErfF);
      })
      .Case([&](CompareOp c) { return compare(c, in[0], in[1], shape); })
      .Case([&](SelectOp) { return select(in, shape); })
      .Case([&](AndOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x & y; });
      })
      .Case([&](OrOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x | y; });
      })
      .Case([&](XorOp) {
        return logical(in[0], in[1], shape, [](int x, int y) { return x ^ y; });
      })
      .Case([&](NotOp) {
        return mapUnary<uint8_t, uint8_t>(in[0], ElementKind::I1,
                                          [](uint8_t x) { return x ^ 1; });
      })
      .Case([&](CastOp) {
        return cast(in[0], *getElementKind(resultType.getElementType()));
      })
      .Case([&](QuantizeOp) {
        return quantize(in[0], in[1], in[2],
                        *getElementKind(resultType.getElementType()));
      })
      .Case([&](DequantizeOp) { return dequantize(in[0], in[1], in[2]); })
      .Case([&](FakeQuantizeOp) { return fakeQuantize(in[0], in[1], in[2]); })
      .Case([&](MatMulIntegerOp) {
        return matmul(centered(in[0], in[2]), centered(in[1], in[3]), shape);
      })
      .Case([&](Conv2DIntegerOp c) {
        return conv2dCentered(centered(in[0], in[2]), centered(in[1], in[3]),
                              shape, c.getGroups(), c.getStrides(), c.getPads(),
                              c.getDilations());
      })
      .Case([&](Conv2DIntegerNchwcOp c) {
        return evaluateConv2DIntegerNchwc(c, centered(in[0], in[2]), in[1],
                                          shape);
      })
      .Case([&](MatMulOp) { return matmul(in[0], in[1], shape); })
      .Case([&](Conv2DOp c) { return conv2d(c, in, shape); })
      .Case([&](Conv2DNchwcOp c) { return evaluateConv2DNchwc(c, in, shape); })
      .Case(
          [&](WinogradInputOp) { return evaluateWinogradInput(in[0], shape); })
      .Case([&](WinogradOutputOp) {
        return evaluateWinogradOutput(in[0], shape);
      })
      .Case([&](MaxPool2DOp m) {
        return pool(in[0], shape, m.getKernel(), m.getStrides(), m.getPads(),
                    m.getDilations(), /*isMax=*/true);
      })
      .Case([&](AvgPool2DOp a) { return avgPool(a, in[0], shape); })
      .Case([&](GlobalAvgPoolOp) {
        auto s = in[0].getShape();
        return divideBy(reduce(in[0], {2, 3}, Reduce::Sum),
                        double(s[2] * s[3]));
      })
      .Case([&](BatchNormOp b) {
        return batchNorm(in, b.getEpsilon().convertToFloat());
      })
      .Case([&](LayerNormOp l) {
        return layerNorm(in[0], in[1], in[2], l.getAxis(),
                         l.getEpsilon().convertToFloat());
      })
      .Case([&](SoftmaxOp s) { return softmax(in[0], s.getAxis(), false); })
      .Case([&](LogSoftmaxOp s) { return softmax(in[0], s.getAxis(), true); })
      .Case([&](ReduceSumOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Sum), shape);
      })
      .Case([&](ReduceMeanOp r) {
        double count = countOver(in[0].getShape(), r.getAxes());
        return withShape(
            divideBy(reduce(in[0], r.getAxes(), Reduce::Sum), count), shape);
      })
      .Case([&](ReduceMaxOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Max), shape);
      })
      .Case([&](CumSumOp c) {
        return cumsum(in[0], c.getAxis(), c.getExclusive(), c.getReverse());
      })
      .Case([&](ArgMaxOp r) {
        return withShape(argReduce(in[0], r.getAxis(), /*isMax=*/true,
                                   r.getSelectLastIndex()),
                         shape);
      })
      .Case([&](ArgMinOp r) {
        return withShape(argReduce(in[0], r.getAxis(), /*isMax=*/false,
                                   r.getSelectLastIndex()),
                         shape);
      })
      .Case([&](ReduceMinOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Min), shape);
      })
      .Case([&](ReduceProdOp r) {
        return withShape(reduce(in[0], r.getAxes(), Reduce::Prod), shape);
      })
      .Case([&](ReshapeOp) { return withShape(in[0], shape); })
      .Case([&](TransposeOp t) { return transpose(in[0], t.getPerm(), shape); })
      .Case([&](ConcatOp c) { return concat(in, c.getAxis(), shape); })
      .Case([&](SliceOp s) { return slice(s, in[0], shape); })
      .Case(
          [&](GatherOp g) { return gather(in[0], in[1], g.getAxis(), shape); })
      .Case([&](PadOp p) { return pad(p, in[0], shape); })
      .Case([&](BroadcastToOp) { return broadcastTo(in[0], shape); })
      .Case([&](GatherElementsOp g) {
        return gatherElements(in[0], in[1], g.getAxis());
      })
      .Case([&](ResizeOp r) { return evaluateResize(r, in, shape); })
      .Case(
          [&](ConvTranspose2DOp) { return evaluateConvTranspose2D(in, shape); })
      .Default([&](Operation *) -> FailureOr<HostTensor> {
        return fail(error,
                    "no evaluator for '" + op->getName().getStringRef() + "'");
      });
}

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// Checks that `t` has the kind and shape of `type`.
LogicalResult checkMatches(const HostTensor &t, Type type, const Twine &what,
                           std::string *error) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  std::optional<ElementKind> kind =
      tensorType ? getElementKind(tensorType.getElementType()) : std::nullopt;
  if (!kind || !tensorType.hasStaticShape())
    return fail(error, what + " has unsupported type " + typeStr(type));
  if (*kind != t.getKind() || tensorType.getShape() != t.getShape())
    return fail(error, what + " must be " + typeStr(type) + ", got " +
                           typeStr(t.getType(type.getContext())));
  return success();
}

} // namespace

namespace {

std::string locStr(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

FailureOr<SmallVector<HostTensor>>
evaluateBlock(Block &block, ArrayRef<HostTensor> args, std::string *error);

/// Ops with a region (graph.fusion_group): the single block's arguments are
/// the operands in order, and its terminator's operands are the results.
FailureOr<SmallVector<HostTensor>>
evaluateRegionOp(Operation *op, ArrayRef<HostTensor> operands,
                 std::string *error) {
  if (!isa<GraphDialect>(op->getDialect()) || op->getNumRegions() != 1 ||
      !llvm::hasSingleElement(op->getRegion(0)))
    return fail(error, "cannot evaluate " + opName(op) +
                           ": not a graph op with one single-block region");
  FailureOr<SmallVector<HostTensor>> results =
      evaluateBlock(op->getRegion(0).front(), operands, error);
  if (failed(results))
    return failure();
  if (results->size() != op->getNumResults())
    return fail(error, opName(op) + " yields " + Twine(results->size()) +
                           " values for " + Twine(op->getNumResults()) +
                           " results");
  for (auto [i, t] : llvm::enumerate(*results))
    if (failed(checkMatches(t, op->getResult(i).getType(),
                            opName(op) + " result #" + Twine(i), error)))
      return failure();
  return results;
}

FailureOr<SmallVector<HostTensor>>
evaluateBlock(Block &block, ArrayRef<HostTensor> args, std::string *error) {
  if (args.size() != block.getNumArguments())
    return fail(error, "block takes " + Twine(block.getNumArguments()) +
                           " arguments, got " + Twine(args.size()));
  llvm::DenseMap<Value, HostTensor> values;
  // Uses left per value, so an operand's last use can take it by move.
  llvm::DenseMap<Value, unsigned> usesLeft;
  auto define = [&](Value v, HostTensor t) {
    usesLeft[v] = std::distance(v.use_begin(), v.use_end());
    values[v] = std::move(t);
  };
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    if (failed(checkMatches(args[i], arg.getType(), "argument #" + Twine(i),
                            error)))
      return failure();
    define(arg, args[i]);
  }
  auto take = [&](Value v) -> HostTensor {
    auto it = values.find(v);
    if (--usesLeft[v] == 0) {
      HostTensor t = std::move(it->second);
      values.erase(it);
      return t;
    }
    return it->second;
  };
  for (Operation &op : block) {
    for (Value v : op.getOperands())
      if (!values.count(v))
        return fail(error, locStr(op.getLoc()) + ": " + opName(&op) +
                               " uses a value defined outside its block");
    SmallVector<HostTensor> operands;
    for (Value v : op.getOperands())
      operands.push_back(take(v));
    if (op.hasTrait<OpTrait::IsTerminator>())
      return SmallVector<HostTensor>(std::move(operands));
    std::string message;
    FailureOr<SmallVector<HostTensor>> results = failure();
    if (op.getNumRegions()) {
      results = evaluateRegionOp(&op, operands, &message);
    } else {
      FailureOr<HostTensor> result = evaluateOp(&op, operands, &message);
      if (succeeded(result))
        results = SmallVector<HostTensor>{std::move(*result)};
    }
    if (failed(results))
      return fail(error, locStr(op.getLoc()) + ": " + message);
    for (auto [v, t] : llvm::zip(op.getResults(), *results))
      define(v, std::move(t));
  }
  return fail(error, "block has no terminator");
}

} // namespace

FailureOr<HostTensor> mlc::graph::evaluateOp(Operation *op,
                                             ArrayRef<HostTensor> operands,
                                             std::string *error) {
  // Any constant-like op with an elements value (graph.constant, and e.g.
  // arith.constant of a tensor).
  if (op->hasTrait<OpTrait::ConstantLike>()) {
    ElementsAttr value;
    if (!matchPattern(op, m_Constant(&value)))
      return fail(error, opName(op) + " is not a tensor constant");
    return fromElementsAttr(value, error);
  }
  if (!isa<GraphDialect>(op->getDialect()))
    return fail(error,
                "cannot evaluate " + opName(op) + ": not a graph dialect op");
  if (op->getNumResults() != 1)
    return fail(error, opName(op) + " must have one result");
  if (operands.size() != op->getNumOperands())
    return fail(error, opName(op) + " has " + Twine(op->getNumOperands()) +
                           " operands, got " + Twine(operands.size()) +
                           " tensors");
  for (auto [i, t] : llvm::enumerate(operands))
    if (failed(checkMatches(t, op->getOperand(i).getType(),
                            opName(op) + " operand #" + Twine(i), error)))
      return failure();
  if (op->getNumRegions()) {
    FailureOr<SmallVector<HostTensor>> results =
        evaluateRegionOp(op, operands, error);
    if (failed(results))
      return failure();
    return std::move(results->front());
  }
  // Unsigned arithmetic is the kernels' alone: the evaluator's numeric ops
  // are signed (ui8 flows only through casts, layout and quantization ops).
  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ModOp, CompareOp,
          ShiftLeftOp, ShiftRightOp>(op) &&
      llvm::any_of(operands, [](const HostTensor &t) {
        return t.getKind() == ElementKind::U8;
      }))
    return fail(error,
                "cannot evaluate " + opName(op) + " on unsigned integers");
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape() ||
      !getElementKind(resultType.getElementType()))
    return fail(error, opName(op) + " has unsupported result type " +
                           typeStr(op->getResult(0).getType()));
  return evaluateGraphOp(op, operands, resultType, error);
}

FailureOr<SmallVector<HostTensor>>
mlc::graph::evaluateFunction(FunctionOpInterface func,
                             ArrayRef<HostTensor> args, std::string *error) {
  Region &body = func.getFunctionBody();
  if (!llvm::hasSingleElement(body))
    return fail(error, "function must have exactly one block");
  if (args.size() != body.front().getNumArguments())
    return fail(error, "function takes " +
                           Twine(body.front().getNumArguments()) +
                           " arguments, got " + Twine(args.size()));
  return evaluateBlock(body.front(), args, error);
}
