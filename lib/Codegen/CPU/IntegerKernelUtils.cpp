//===- IntegerKernelUtils.cpp - shared parts of the int8 kernels ----------===//
//
// See IntegerKernelUtils.h.
//
//===----------------------------------------------------------------------===//

#include "IntegerKernelUtils.h"
#include "mlc/Codegen/Common/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace mlc::codegen;
using namespace mlc::codegen::int8;

namespace {

/// v = ext(arg) or ext(arg) - constant; returns the block argument.
std::optional<BlockArgument> extendedArg(Value v, bool &isSigned,
                                         int64_t &zeroPoint) {
  zeroPoint = 0;
  if (auto sub = v.getDefiningOp<arith::SubIOp>()) {
    APInt c;
    if (!matchPattern(sub.getRhs(), m_ConstantInt(&c)))
      return std::nullopt;
    zeroPoint = c.getSExtValue();
    v = sub.getLhs();
  }
  Value src;
  if (auto e = v.getDefiningOp<arith::ExtUIOp>()) {
    isSigned = false;
    src = e.getIn();
  } else if (auto e = v.getDefiningOp<arith::ExtSIOp>()) {
    isSigned = true;
    src = e.getIn();
  } else {
    return std::nullopt;
  }
  auto arg = dyn_cast<BlockArgument>(src);
  if (!arg || !arg.getType().isInteger(8))
    return std::nullopt;
  return arg;
}

} // namespace

Type DotKind::weightType(MLIRContext *ctx) const {
  return IntegerType::get(ctx, pairs() ? 16 : 8);
}

VectorType DotKind::operandType(MLIRContext *ctx) const {
  return VectorType::get({lanes * group}, weightType(ctx));
}

std::optional<DotKind> mlc::codegen::int8::dotKind(const KernelOptions &o,
                                                   ArrayRef<int8_t> weights) {
  DotKind kind;
  kind.lanes = o.vectorBits / 32;
  kind.registers = o.vectorRegisters;
  if (o.vnni && o.vectorBits == 512)
    return kind;
  if (!o.int16Pairs || (o.vectorBits != 256 && o.vectorBits != 512))
    return std::nullopt;
  kind.narrowBytes =
      llvm::all_of(weights, [](int8_t w) { return w >= -64 && w <= 64; });
  if (!kind.narrowBytes)
    kind.group = 2;
  return kind;
}

bool mlc::codegen::int8::isByteDotBody(linalg::GenericOp op, ByteOperand &x) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add || add.getLhs() != body.getArgument(2))
    return false;
  auto mul = add.getRhs().getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  bool wSigned = false;
  int64_t wz = 0;
  auto xArg = extendedArg(mul.getLhs(), x.isSigned, x.zeroPoint);
  auto wArg = extendedArg(mul.getRhs(), wSigned, wz);
  return xArg && wArg && xArg->getArgNumber() == 0 &&
         wArg->getArgNumber() == 1 && wSigned && wz == 0;
}

PackedWeights::PackedWeights(const DotKind &kind, int64_t tiles,
                             int64_t reduction)
    : tiles(tiles), steps(llvm::divideCeil(reduction, kind.group)), kind(kind),
      values(tiles * steps * kind.lanes * kind.group, 0),
      sums(tiles * kind.lanes, 0) {}

void PackedWeights::set(int64_t col, int64_t k, int8_t v) {
  int64_t g = kind.group, l = kind.lanes;
  values[((col / l * steps + k / g) * l + col % l) * g + k % g] = v;
  sums[col] += v;
}

Value PackedWeights::packed(OpBuilder &b, Location loc, StringRef name) {
  int64_t width = kind.pairs() ? 2 : 1;
  auto type = RankedTensorType::get({tiles, steps, kind.lanes * kind.group},
                                    kind.weightType(b.getContext()));
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(values.size() * width, width);
  MutableArrayRef<char> out = blob.getMutableData();
  for (size_t i = 0; i < values.size(); ++i) {
    if (width == 1)
      out[i] = char(int8_t(values[i]));
    else
      std::memcpy(&out[2 * i], &values[i], 2);
  }
  return arith::ConstantOp::create(
      b, loc, DenseResourceElementsAttr::get(type, name, std::move(blob)));
}

Value PackedWeights::correction(OpBuilder &b, Location loc,
                                const ByteOperand &x) {
  int64_t zp = unsignedZeroPoint(x);
  std::vector<int32_t> corr;
  for (int64_t sum : sums)
    corr.push_back(int32_t(uint32_t(zp * sum)));
  auto type = RankedTensorType::get({int64_t(corr.size())}, b.getI32Type());
  return arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, ArrayRef<int32_t>(corr)));
}

Value mlc::codegen::int8::broadcastGroup(OpBuilder &b, Location loc,
                                         const DotKind &kind, Value src,
                                         ValueRange indices,
                                         const ByteOperand &x, bool inBounds) {
  MLIRContext *ctx = b.getContext();
  auto bytesType = VectorType::get({kind.group}, b.getI8Type());
  Value i8zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value bytes = vector::TransferReadOp::create(
      b, loc, bytesType, src, indices, i8zero, ArrayRef<bool>{inBounds});
  // Signed bytes as uint8: the sign bit flipped (x + 128).
  if (x.isSigned)
    bytes = arith::XOrIOp::create(
        b, loc, bytes,
        arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(bytesType, b.getI8IntegerAttr(-128))));
  if (kind.pairs())
    bytes = arith::ExtUIOp::create(b, loc, VectorType::get({2}, b.getI16Type()),
                                   bytes);
  Value word = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), bytes);
  Value scalar = vector::ExtractOp::create(b, loc, word, 0);
  Value splat = vector::BroadcastOp::create(
      b, loc, VectorType::get({kind.lanes}, b.getI32Type()), scalar);
  return vector::BitCastOp::create(b, loc, kind.operandType(ctx), splat);
}

Value mlc::codegen::int8::readWeights(OpBuilder &b, Location loc,
                                      const DotKind &kind, Value packed,
                                      Value tile, Value step) {
  MLIRContext *ctx = b.getContext();
  Value zero = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(kind.weightType(ctx), 0));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value w = vector::TransferReadOp::create(b, loc, kind.operandType(ctx),
                                           packed, ValueRange{tile, step, c0},
                                           zero, ArrayRef<bool>{true});
  auto wideType = VectorType::get({kind.lanes * kind.group}, b.getI32Type());
  Value wide = arith::ExtSIOp::create(b, loc, wideType, w);
  if (!kind.narrowBytes)
    return wide;
  // Weights known to be within [-64, 64]: the clamp changes nothing, and
  // tells mlc-x86-int-dot that vpmaddubsw cannot saturate.
  auto bound = [&](int32_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wideType, b.getI32IntegerAttr(v)));
  };
  Value lo = arith::MaxSIOp::create(b, loc, wide, bound(-64));
  return arith::MinSIOp::create(b, loc, lo, bound(64));
}

Value mlc::codegen::int8::dotStep(OpBuilder &b, Location loc,
                                  const DotKind &kind, Value acc, Value x,
                                  Value wWide) {
  auto wide = cast<VectorType>(wWide.getType());
  auto groups = VectorType::get({kind.lanes, kind.group}, b.getI32Type());
  // The x of pairs is int16 of 0..255: sign extension keeps it.
  Value xWide = kind.pairs()
                    ? arith::ExtSIOp::create(b, loc, wide, x).getResult()
                    : arith::ExtUIOp::create(b, loc, wide, x).getResult();
  Value prod = arith::MulIOp::create(b, loc, xWide, wWide);
  Value grouped = vector::ShapeCastOp::create(b, loc, groups, prod);
  return vector::MultiDimReductionOp::create(b, loc, grouped, acc,
                                             ArrayRef<bool>{false, true},
                                             vector::CombiningKind::ADD);
}

Value mlc::codegen::int8::writeResult(OpBuilder &b, Location loc,
                                      const DotKind &kind, Value dest,
                                      Value sum, Value correction, Value col,
                                      linalg::GenericOp epilogue,
                                      ArrayRef<EpilogueInput> epilogueInputs,
                                      ArrayRef<Value> at,
                                      ArrayRef<Value> destAt, bool inBounds) {
  auto accType = VectorType::get({kind.lanes}, b.getI32Type());
  Value c = vector::TransferReadOp::create(
      b, loc, accType, correction, ValueRange{col},
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
      ArrayRef<bool>{true});
  Value v = arith::SubIOp::create(b, loc, sum, c);
  if (epilogue) {
    SmallVector<Value> args;
    for (const EpilogueInput &in : epilogueInputs)
      args.push_back(
          in.tensor ? readEpilogueInput(b, loc, in, at, kind.lanes, inBounds)
                    : v);
    v = replayOnVectors(b, loc, epilogue.getRegion().front(), args, kind.lanes);
  }
  return vector::TransferWriteOp::create(b, loc, v, dest, destAt,
                                         ArrayRef<bool>{inBounds})
      .getResult();
}

Value mlc::codegen::int8::loopCarrying(OpBuilder &b, Location loc, Value dest,
                                       int64_t from, int64_t to, int64_t step,
                                       function_ref<Value(Value, Value)> body) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto forOp = scf::ForOp::create(b, loc, cst(from), cst(to), cst(step),
                                  ValueRange{dest});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  Value r = body(forOp.getInductionVar(), forOp.getRegionIterArgs()[0]);
  scf::YieldOp::create(b, loc, r);
  return forOp.getResult(0);
}

Value mlc::codegen::int8::forallOverRowBands(
    OpBuilder &b, Location loc, Value dest, int64_t rows,
    function_ref<Value(Value, Value, int64_t)> body) {
  // Tasks wanted: a band of rows per task.
  constexpr int64_t kBands = 8;
  int64_t band = 1;
  for (int64_t v = rows / kBands; v > 1; --v)
    if (rows % v == 0) {
      band = v;
      break;
    }
  return forallOverSlices(
      b, loc, dest, 2, rows,
      [&](Value oh0, Value slice) { return body(oh0, slice, band); }, band);
}

std::optional<std::pair<int64_t, int64_t>>
mlc::codegen::int8::windowCoefficients(AffineExpr e, unsigned outDim,
                                       unsigned kDim, unsigned numDims) {
  std::optional<SmallVector<int64_t>> form = linearForm(e, numDims);
  if (!form)
    return std::nullopt;
  // Coefficients of the dims, then the constant term: only the two dims.
  for (auto [i, c] : llvm::enumerate(*form))
    if (i != outDim && i != kDim && c != 0)
      return std::nullopt;
  int64_t s = (*form)[outDim], d = (*form)[kDim];
  if (s < 1 || d < 1)
    return std::nullopt;
  return std::pair(s, d);
}
