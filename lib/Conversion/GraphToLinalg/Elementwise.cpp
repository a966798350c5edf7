//===- Elementwise.cpp - elementwise graph ops -> linalg.generic ----------===//
//
// Every elementwise op (unary, binary, compare, select, cast) becomes one
// broadcasting linalg.generic whose body is the scalar computation below.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlc::graph;
using namespace mlc::lowering;

namespace {

using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange);

/// Lowers an op by applying a scalar function to its (broadcast) operands:
/// a fixed one, or one chosen from the op's attributes. Unsigned operands
/// take `unsignedFn` (the op has none: no match), on their signless view.
template <typename OpTy>
struct ElementwisePattern : OpRewritePattern<OpTy> {
  using Chooser = ScalarFn (*)(OpTy);
  ElementwisePattern(MLIRContext *ctx, ScalarFn fn,
                     ScalarFn unsignedFn = nullptr)
      : OpRewritePattern<OpTy>(ctx), fn(fn), unsignedFn(unsignedFn) {}
  ElementwisePattern(MLIRContext *ctx, Chooser choose,
                     ScalarFn unsignedFn = nullptr)
      : OpRewritePattern<OpTy>(ctx), choose(choose), unsignedFn(unsignedFn) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScalarFn f = choose ? choose(op) : fn;
    if (llvm::any_of(op->getOperands(), isUnsignedTensor)) {
      if (!unsignedFn)
        return rewriter.notifyMatchFailure(op, "no unsigned lowering");
      f = unsignedFn;
    }
    SmallVector<Value> operands =
        llvm::map_to_vector(op->getOperands(), [&](Value v) {
          return toSignless(rewriter, loc, v);
        });
    auto type = cast<RankedTensorType>(signlessType(op.getType()));
    Value result =
        buildElementwise(rewriter, loc, type, operands,
                         [&](OpBuilder &b, Location l, ValueRange args) {
                           return f(b, l, args);
                         });
    rewriter.replaceOp(op, fromSignless(rewriter, loc, result, op.getType()));
    return success();
  }
  ScalarFn fn = nullptr;
  Chooser choose = nullptr;
  ScalarFn unsignedFn = nullptr;
};

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value zeroLike(OpBuilder &b, Location loc, Value v) {
  return scalarConstant(b, loc, v.getType(), 0.0);
}

/// An integer divisor that sdiv/srem accept: 0 and -1 (x / 0 traps, and
/// so does INT_MIN / -1) are replaced by 1; callers define those results.
struct SafeDivisor {
  Value divisor, zero, isZero, unsafe;
};
SafeDivisor safeDivisor(OpBuilder &b, Location loc, Value d) {
  Value zero = zeroLike(b, loc, d);
  Value one = scalarConstant(b, loc, d.getType(), 1.0);
  Value minusOne = scalarConstant(b, loc, d.getType(), -1.0);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  return {arith::SelectOp::create(b, loc, unsafe, one, d), zero, isZero,
          unsafe};
}

Value lowerDiv(OpBuilder &b, Location loc, ValueRange a) {
  if (isFloat(a[0]))
    return arith::DivFOp::create(b, loc, a[0], a[1]);
  // Integer x / 0 is defined as 0 and INT_MIN / -1 wraps, instead of the
  // trap a bare sdiv would raise on bad data.
  SafeDivisor d = safeDivisor(b, loc, a[1]);
  Value quotient = arith::DivSIOp::create(b, loc, a[0], d.divisor);
  Value negated = arith::SubIOp::create(b, loc, d.zero, a[0]);
  Value special = arith::SelectOp::create(b, loc, d.isZero, d.zero, negated);
  return arith::SelectOp::create(b, loc, d.unsafe, special, quotient);
}

/// C fmod: remainder with the dividend's sign (frem is libm's fmodf). For
/// integers x mod 0 = x mod -1 = 0: srem by 1 instead of a trap.
Value lowerFmod(OpBuilder &b, Location loc, ValueRange a) {
  if (isFloat(a[0]))
    return arith::RemFOp::create(b, loc, a[0], a[1]);
  return arith::RemSIOp::create(b, loc, a[0],
                                safeDivisor(b, loc, a[1]).divisor);
}

/// Floor modulo (integers): a nonzero remainder whose sign differs from
/// the divisor's moves by one divisor, so the result has the divisor's sign.
Value lowerFloorMod(OpBuilder &b, Location loc, ValueRange a) {
  SafeDivisor d = safeDivisor(b, loc, a[1]);
  Value rem = arith::RemSIOp::create(b, loc, a[0], d.divisor);
  Value zero = d.zero;
  Value signsDiffer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            arith::XOrIOp::create(b, loc, rem, a[1]), zero);
  Value nonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
  Value adjust = arith::AndIOp::create(b, loc, signsDiffer, nonZero);
  return arith::SelectOp::create(b, loc, adjust,
                                 arith::AddIOp::create(b, loc, rem, a[1]), rem);
}

/// Unsigned x / y and x mod y (both ONNX modes): x / 0 = x mod 0 = 0, by
/// dividing by 1 instead (x mod 1 = 0).
Value nonZeroDivisor(OpBuilder &b, Location loc, Value d, Value isZero) {
  return arith::SelectOp::create(b, loc, isZero,
                                 scalarConstant(b, loc, d.getType(), 1.0), d);
}
Value isZeroInt(OpBuilder &b, Location loc, Value d) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d,
                               zeroLike(b, loc, d));
}
Value lowerDivUnsigned(OpBuilder &b, Location loc, ValueRange a) {
  Value isZero = isZeroInt(b, loc, a[1]);
  Value quotient = arith::DivUIOp::create(b, loc, a[0],
                                          nonZeroDivisor(b, loc, a[1], isZero));
  return arith::SelectOp::create(b, loc, isZero, zeroLike(b, loc, a[0]),
                                 quotient);
}
Value lowerModUnsigned(OpBuilder &b, Location loc, ValueRange a) {
  return arith::RemUIOp::create(
      b, loc, a[0], nonZeroDivisor(b, loc, a[1], isZeroInt(b, loc, a[1])));
}

/// x << y and x >> y for integers, defined for every amount: LLVM's shifts
/// are poison from the bit width on, where these saturate (0, or the sign
/// for arithmetic right shifts).
Value shiftAmountInRange(OpBuilder &b, Location loc, Value y) {
  Value width = scalarConstant(b, loc, y.getType(),
                               double(y.getType().getIntOrFloatBitWidth()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, y, width);
}
Value lowerShiftLeft(OpBuilder &b, Location loc, ValueRange a) {
  Value shifted = arith::ShLIOp::create(b, loc, a[0], a[1]);
  return arith::SelectOp::create(b, loc, shiftAmountInRange(b, loc, a[1]),
                                 shifted, zeroLike(b, loc, a[0]));
}
Value lowerShiftRightUnsigned(OpBuilder &b, Location loc, ValueRange a) {
  Value shifted = arith::ShRUIOp::create(b, loc, a[0], a[1]);
  return arith::SelectOp::create(b, loc, shiftAmountInRange(b, loc, a[1]),
                                 shifted, zeroLike(b, loc, a[0]));
}
Value lowerShiftRightSigned(OpBuilder &b, Location loc, ValueRange a) {
  Type t = a[0].getType();
  Value maxAmount =
      scalarConstant(b, loc, t, double(t.getIntOrFloatBitWidth() - 1));
  Value amount = arith::SelectOp::create(
      b, loc, shiftAmountInRange(b, loc, a[1]), a[1], maxAmount);
  return arith::ShRSIOp::create(b, loc, a[0], amount);
}

Value lowerNeg(OpBuilder &b, Location loc, ValueRange a) {
  if (isFloat(a[0]))
    return arith::NegFOp::create(b, loc, a[0]);
  return arith::SubIOp::create(b, loc, zeroLike(b, loc, a[0]), a[0]);
}

Value lowerAbs(OpBuilder &b, Location loc, ValueRange a) {
  if (isFloat(a[0]))
    return math::AbsFOp::create(b, loc, a[0]);
  return math::AbsIOp::create(b, loc, a[0]);
}

/// numpy's sign: -1 below zero, 1 above, and x itself otherwise for
/// integers (0) or +0.0 / NaN for floats.
Value lowerSign(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0];
  Value zero = zeroLike(b, loc, x);
  Value one = scalarConstant(b, loc, x.getType(), 1.0);
  Value minusOne = scalarConstant(b, loc, x.getType(), -1.0);
  Value isPos, isNeg, rest = zero;
  if (isFloat(x)) {
    isPos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
    isNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    rest = arith::SelectOp::create(b, loc, isNaN, x, zero);
  } else {
    isPos = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
    isNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  }
  Value notPos = arith::SelectOp::create(b, loc, isNeg, minusOne, rest);
  return arith::SelectOp::create(b, loc, isPos, one, notPos);
}

/// A unary math dialect op on the single operand.
template <typename MathOp>
Value lowerMathUnary(OpBuilder &b, Location loc, ValueRange a) {
  return MathOp::create(b, loc, a[0]);
}

/// pow: powf for floats. Integers: square-and-multiply over the exponent's
/// bits (wrapping, as numpy), one scf.for with a constant trip count; a
/// negative exponent gives 0, or 1 / +-1 for bases 1 / -1.
Value lowerPow(OpBuilder &b, Location loc, ValueRange a) {
  if (isFloat(a[0]))
    return math::PowFOp::create(b, loc, a[0], a[1]);
  Value base = a[0], exp = a[1];
  Type t = base.getType();
  Value zero = zeroLike(b, loc, base);
  Value one = scalarConstant(b, loc, t, 1.0);
  Value minusOne = scalarConstant(b, loc, t, -1.0);
  auto idx = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // A non-negative exponent has at most width - 1 bits.
  auto loop = scf::ForOp::create(
      b, loc, idx(0), idx(t.getIntOrFloatBitWidth() - 1), idx(1),
      ValueRange{one, base, exp},
      [&](OpBuilder &nb, Location l, Value, ValueRange it) {
        Value odd = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::ne,
            arith::AndIOp::create(nb, l, it[2], one), zero);
        Value result = arith::SelectOp::create(
            nb, l, odd, arith::MulIOp::create(nb, l, it[0], it[1]), it[0]);
        Value square = arith::MulIOp::create(nb, l, it[1], it[1]);
        Value rest = arith::ShRUIOp::create(nb, l, it[2], one);
        scf::YieldOp::create(nb, l, ValueRange{result, square, rest});
      });
  Value oddExp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exp, one), zero);
  Value isOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, one);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, minusOne);
  Value minusOnePow = arith::SelectOp::create(b, loc, oddExp, minusOne, one);
  Value negative = arith::SelectOp::create(
      b, loc, isOne, one,
      arith::SelectOp::create(b, loc, isMinusOne, minusOnePow, zero));
  Value negExp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exp, zero);
  return arith::SelectOp::create(b, loc, negExp, negative, loop.getResult(0));
}

Value lowerSigmoid(OpBuilder &b, Location loc, ValueRange a) {
  Value one = scalarConstant(b, loc, a[0].getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, a[0]));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

Value geluFromCdfArg(OpBuilder &b, Location loc, Value x, Value phiCore) {
  // 0.5 * x * (1 + phiCore)
  Type t = x.getType();
  Value half = scalarConstant(b, loc, t, 0.5);
  Value one = scalarConstant(b, loc, t, 1.0);
  Value s = arith::AddFOp::create(b, loc, one, phiCore);
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, half, x),
                               s);
}

Value lowerGeluErf(OpBuilder &b, Location loc, ValueRange a) {
  Value scaled = arith::MulFOp::create(
      b, loc, a[0], scalarConstant(b, loc, a[0].getType(), M_SQRT1_2));
  return geluFromCdfArg(b, loc, a[0], math::ErfOp::create(b, loc, scaled));
}

Value lowerGeluTanh(OpBuilder &b, Location loc, ValueRange a) {
  Type t = a[0].getType();
  Value x = a[0];
  Value x3 = arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x),
                                   x);
  Value inner = arith::AddFOp::create(
      b, loc, x,
      arith::MulFOp::create(b, loc, scalarConstant(b, loc, t, 0.044715), x3));
  Value arg = arith::MulFOp::create(
      b, loc, scalarConstant(b, loc, t, std::sqrt(2.0 / M_PI)), inner);
  return geluFromCdfArg(b, loc, x, math::TanhOp::create(b, loc, arg));
}

Value lowerSelect(OpBuilder &b, Location loc, ValueRange a) {
  return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
}

/// Ordered float predicates (false on NaN), except ne, which is true on NaN
/// as in IEEE and numpy.
arith::CmpFPredicate floatPredicate(ComparePredicate pred) {
  using FP = arith::CmpFPredicate;
  switch (pred) {
  case ComparePredicate::eq:
    return FP::OEQ;
  case ComparePredicate::ne:
    return FP::UNE;
  case ComparePredicate::lt:
    return FP::OLT;
  case ComparePredicate::le:
    return FP::OLE;
  case ComparePredicate::gt:
    return FP::OGT;
  case ComparePredicate::ge:
    return FP::OGE;
  }
  llvm_unreachable("unknown compare predicate");
}

arith::CmpIPredicate intPredicate(ComparePredicate pred, bool isUnsigned) {
  using IP = arith::CmpIPredicate;
  switch (pred) {
  case ComparePredicate::eq:
    return IP::eq;
  case ComparePredicate::ne:
    return IP::ne;
  case ComparePredicate::lt:
    return isUnsigned ? IP::ult : IP::slt;
  case ComparePredicate::le:
    return isUnsigned ? IP::ule : IP::sle;
  case ComparePredicate::gt:
    return isUnsigned ? IP::ugt : IP::sgt;
  case ComparePredicate::ge:
    return isUnsigned ? IP::uge : IP::sge;
  }
  llvm_unreachable("unknown compare predicate");
}

struct ComparePattern : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    ComparePredicate pred = op.getPredicate();
    Location loc = op.getLoc();
    bool isUnsigned = isUnsignedTensor(op.getLhs());
    Value result = buildElementwise(
        rewriter, loc, op.getType(),
        ValueRange{toSignless(rewriter, loc, op.getLhs()),
                   toSignless(rewriter, loc, op.getRhs())},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          if (isFloat(a[0]))
            return arith::CmpFOp::create(b, l, floatPredicate(pred), a[0],
                                         a[1]);
          return arith::CmpIOp::create(b, l, intPredicate(pred, isUnsigned),
                                       a[0], a[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

bool isHalfFloat(Type t) { return t.isF16() || t.isBF16(); }

/// f64 -> f32 rounded to odd (toward zero, then the last mantissa bit set
/// when inexact). Rounding that to f16 or bf16 (at most 11 significant bits,
/// f32 has 24) gives the correctly rounded f64 -> f16/bf16 result, which
/// rounding to nearest twice would not.
Value truncToOddF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value t = arith::TruncFOp::create(b, loc, f32, x);
  Value back = arith::ExtFOp::create(b, loc, b.getF64Type(), t);
  // Rounded up in magnitude: one ulp back toward zero. NaN compares false.
  Value away = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                     math::AbsFOp::create(b, loc, back),
                                     math::AbsFOp::create(b, loc, x));
  Value inexact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, x);
  Value bits = arith::BitcastOp::create(b, loc, i32, t);
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value towardZero = arith::SelectOp::create(
      b, loc, away, arith::SubIOp::create(b, loc, bits, one), bits);
  Value odd = arith::SelectOp::create(
      b, loc, inexact, arith::OrIOp::create(b, loc, towardZero, one),
      towardZero);
  return arith::BitcastOp::create(b, loc, f32, odd);
}

/// Scalar conversion between f32, f64, f16, bf16, i64, i32, i16, i8 and i1;
/// `fromUnsigned` / `toUnsigned` read or make the integer as unsigned (the
/// graph's ui types, signless here). Results are signless.
Value convertScalar(OpBuilder &b, Location loc, Value x, Type to,
                    bool fromUnsigned = false, bool toUnsigned = false) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (fromUnsigned && isa<FloatType>(to)) {
    if (!isHalfFloat(to))
      return arith::UIToFPOp::create(b, loc, to, x);
    // Exact in f64 up to 2^53, and rounded once more to odd: see below.
    Value wide = arith::UIToFPOp::create(b, loc, b.getF64Type(), x);
    return arith::TruncFOp::create(b, loc, to, truncToOddF32(b, loc, wide));
  }
  if (fromUnsigned && isa<IntegerType>(to) && !to.isInteger(1))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? Value(arith::ExtUIOp::create(b, loc, to, x))
               : Value(arith::TruncIOp::create(b, loc, to, x));
  // Float to an 8- or 16-bit integer through i32, and to ui32 through i64:
  // out-of-range values wrap instead of being poison (ONNX leaves them
  // undefined). ui64 takes fptoui, so that values from 2^63 on convert.
  if (isa<FloatType>(from) && isa<IntegerType>(to) && !to.isInteger(1)) {
    unsigned width = to.getIntOrFloatBitWidth();
    if (width <= 16 || (toUnsigned && width == 32)) {
      Type via = width <= 16 ? b.getI32Type() : b.getI64Type();
      return arith::TruncIOp::create(b, loc, to, convertScalar(b, loc, x, via));
    }
    if (toUnsigned && !isHalfFloat(from))
      return arith::FPToUIOp::create(b, loc, to, x);
  }
  // f16 and bf16 convert through f32, which holds them exactly; producing
  // them needs only f32 -> f16/bf16 truncations (bf16 ones are expanded to
  // integer ops before LLVM, see mlc-expand-bf16).
  if (isHalfFloat(from))
    return convertScalar(b, loc,
                         arith::ExtFOp::create(b, loc, b.getF32Type(), x), to,
                         /*fromUnsigned=*/false, toUnsigned);
  if (isHalfFloat(to)) {
    Value wide = x;
    if (from.isInteger(1))
      wide = arith::UIToFPOp::create(b, loc, b.getF32Type(), x);
    else if (isa<IntegerType>(from)) // exact up to 2^53
      wide = arith::SIToFPOp::create(b, loc, b.getF64Type(), x);
    if (wide.getType().isF64())
      wide = truncToOddF32(b, loc, wide);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (to.isInteger(1)) {
    Value zero = zeroLike(b, loc, x);
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (from.isInteger(1)) {
    if (isa<FloatType>(to))
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::ExtUIOp::create(b, loc, to, x);
  }
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, x))
               : Value(arith::TruncFOp::create(b, loc, to, x));
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  if (isa<FloatType>(to))
    return arith::SIToFPOp::create(b, loc, to, x);
  return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
             ? Value(arith::ExtSIOp::create(b, loc, to, x))
             : Value(arith::TruncIOp::create(b, loc, to, x));
}

struct CastPattern : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(signlessType(op.getType()));
    bool fromUnsigned = isUnsignedTensor(op.getInput());
    bool toUnsigned = isUnsignedTensor(op.getResult());
    Value result = buildElementwise(
        rewriter, loc, type, toSignless(rewriter, loc, op.getInput()),
        [&](OpBuilder &b, Location l, ValueRange a) {
          return convertScalar(b, l, a[0], type.getElementType(), fromUnsigned,
                               toUnsigned);
        });
    rewriter.replaceOp(op, fromSignless(rewriter, loc, result, op.getType()));
    return success();
  }
};

} // namespace

void mlc::lowering::populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
#define MLC_EW(OP, BODY)                                                       \
  patterns.add<ElementwisePattern<OP>>(                                        \
      ctx, [](OpBuilder &b, Location loc, ValueRange a) -> Value { BODY; })
  // Ops with unsigned operands too: a second body for them, or one body for
  // both where wrapping integer arithmetic is the same on the bits.
#define MLC_EW_U(OP, BODY, UNSIGNED_BODY)                                      \
  patterns.add<ElementwisePattern<OP>>(                                        \
      ctx, [](OpBuilder &b, Location loc, ValueRange a) -> Value { BODY; },    \
      [](OpBuilder &b, Location loc, ValueRange a) -> Value {                  \
        UNSIGNED_BODY;                                                         \
      })
#define MLC_EW_ANY(OP, BODY)                                                   \
  {                                                                            \
    ScalarFn fn = [](OpBuilder &b, Location loc, ValueRange a) -> Value {      \
      BODY;                                                                    \
    };                                                                         \
    patterns.add<ElementwisePattern<OP>>(ctx, fn, fn);                         \
  }
  MLC_EW_ANY(AddOp, return addScalar(b, loc, a[0], a[1]));
  MLC_EW_ANY(SubOp, return subScalar(b, loc, a[0], a[1]));
  MLC_EW_ANY(MulOp, return mulScalar(b, loc, a[0], a[1]));
  MLC_EW_ANY(ShiftLeftOp, return lowerShiftLeft(b, loc, a));
  MLC_EW_U(DivOp, return lowerDiv(b, loc, a),
           return lowerDivUnsigned(b, loc, a));
  MLC_EW(PowOp, return lowerPow(b, loc, a));
  MLC_EW_U(MaxOp, return maxScalar(b, loc, a[0], a[1]),
           return arith::MaxUIOp::create(b, loc, a[0], a[1]));
  MLC_EW_U(MinOp, return minScalar(b, loc, a[0], a[1]),
           return arith::MinUIOp::create(b, loc, a[0], a[1]));
  MLC_EW_U(ShiftRightOp, return lowerShiftRightSigned(b, loc, a),
           return lowerShiftRightUnsigned(b, loc, a));
#undef MLC_EW_ANY
#undef MLC_EW_U
  MLC_EW(NegOp, return lowerNeg(b, loc, a));
  MLC_EW(AbsOp, return lowerAbs(b, loc, a));
  MLC_EW(ReluOp, return maxScalar(b, loc, a[0], zeroLike(b, loc, a[0])));
  MLC_EW(ExpOp, return math::ExpOp::create(b, loc, a[0]));
  MLC_EW(LogOp, return math::LogOp::create(b, loc, a[0]));
  MLC_EW(SqrtOp, return math::SqrtOp::create(b, loc, a[0]));
  MLC_EW(RsqrtOp, return math::RsqrtOp::create(b, loc, a[0]));
  MLC_EW(TanhOp, return math::TanhOp::create(b, loc, a[0]));
  MLC_EW(SigmoidOp, return lowerSigmoid(b, loc, a));
  MLC_EW(ErfOp, return math::ErfOp::create(b, loc, a[0]));
  MLC_EW(SelectOp, return lowerSelect(b, loc, a));
  MLC_EW(SignOp, return lowerSign(b, loc, a));
  MLC_EW(AndOp, return arith::AndIOp::create(b, loc, a[0], a[1]));
  MLC_EW(OrOp, return arith::OrIOp::create(b, loc, a[0], a[1]));
  MLC_EW(XorOp, return arith::XOrIOp::create(b, loc, a[0], a[1]));
  MLC_EW(NotOp, return arith::XOrIOp::create(
                    b, loc, a[0], scalarConstant(b, loc, a[0].getType(), 1.0)));
#undef MLC_EW
  // Float functions that become LLVM intrinsics or libm calls (see
  // convert-math-to-llvm and convert-math-to-libm in the CPU pipeline).
#define MLC_MATH(OP, MATH_OP)                                                  \
  patterns.add<ElementwisePattern<OP>>(ctx, lowerMathUnary<math::MATH_OP>)
  MLC_MATH(SinOp, SinOp);
  MLC_MATH(CosOp, CosOp);
  MLC_MATH(TanOp, TanOp);
  MLC_MATH(AsinOp, AsinOp);
  MLC_MATH(AcosOp, AcosOp);
  MLC_MATH(AtanOp, AtanOp);
  MLC_MATH(SinhOp, SinhOp);
  MLC_MATH(CoshOp, CoshOp);
  MLC_MATH(AsinhOp, AsinhOp);
  MLC_MATH(AcoshOp, AcoshOp);
  MLC_MATH(AtanhOp, AtanhOp);
  MLC_MATH(FloorOp, FloorOp);
  MLC_MATH(CeilOp, CeilOp);
  MLC_MATH(RoundOp, RoundEvenOp);
#undef MLC_MATH
  patterns.add<ElementwisePattern<GeluOp>>(ctx, [](GeluOp op) -> ScalarFn {
    return op.getTanhApproximation() ? lowerGeluTanh : lowerGeluErf;
  });
  patterns.add<ElementwisePattern<ModOp>>(
      ctx,
      [](ModOp op) -> ScalarFn {
        return op.getFmod() ? lowerFmod : lowerFloorMod;
      },
      lowerModUnsigned);
  patterns.add<ComparePattern, CastPattern>(ctx);
}
