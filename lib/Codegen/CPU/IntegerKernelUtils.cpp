//===- IntegerKernelUtils.cpp - shared parts of the int8 kernels ----------===//
//
// See IntegerKernelUtils.h.
//
//===----------------------------------------------------------------------===//

#include "IntegerKernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

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

Value mlc::codegen::int8::broadcastWord(OpBuilder &b, Location loc, Value src,
                                        ValueRange indices,
                                        const ByteOperand &x) {
  auto accType = VectorType::get({kLanes}, b.getI32Type());
  auto bytesType = VectorType::get({4 * kLanes}, b.getI8Type());
  Value i8zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value four = vector::TransferReadOp::create(
      b, loc, VectorType::get({4}, b.getI8Type()), src, indices, i8zero,
      ArrayRef<bool>{false});
  Value word = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), four);
  Value scalar = vector::ExtractOp::create(b, loc, word, 0);
  Value bytes = vector::BitCastOp::create(
      b, loc, bytesType, vector::BroadcastOp::create(b, loc, accType, scalar));
  if (x.isSigned)
    bytes = arith::XOrIOp::create(
        b, loc, bytes,
        arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(bytesType, b.getI8IntegerAttr(-128))));
  return bytes;
}

Value mlc::codegen::int8::widenWeights(OpBuilder &b, Location loc,
                                       Value bytes) {
  return arith::ExtSIOp::create(
      b, loc, VectorType::get({4 * kLanes}, b.getI32Type()), bytes);
}

Value mlc::codegen::int8::byteDot(OpBuilder &b, Location loc, Value acc,
                                  Value xBytes, Value wWide) {
  auto wide = VectorType::get({4 * kLanes}, b.getI32Type());
  auto groups = VectorType::get({kLanes, 4}, b.getI32Type());
  Value xWide = arith::ExtUIOp::create(b, loc, wide, xBytes);
  Value prod = arith::MulIOp::create(b, loc, xWide, wWide);
  Value grouped = vector::ShapeCastOp::create(b, loc, groups, prod);
  return vector::MultiDimReductionOp::create(b, loc, grouped, acc,
                                             ArrayRef<bool>{false, true},
                                             vector::CombiningKind::ADD);
}

Value mlc::codegen::int8::writeResult(OpBuilder &b, Location loc, Value dest,
                                      Value sum, Value correction, Value col,
                                      linalg::GenericOp epilogue,
                                      ArrayRef<EpilogueInput> epilogueInputs,
                                      ArrayRef<Value> at,
                                      ArrayRef<Value> destAt, bool inBounds) {
  auto accType = VectorType::get({kLanes}, b.getI32Type());
  Value c = vector::TransferReadOp::create(
      b, loc, accType, correction, ValueRange{col},
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
      ArrayRef<bool>{true});
  Value v = arith::SubIOp::create(b, loc, sum, c);
  if (epilogue) {
    SmallVector<Value> args;
    for (const EpilogueInput &in : epilogueInputs)
      args.push_back(
          in.tensor ? readEpilogueInput(b, loc, in, at, kLanes, inBounds) : v);
    v = replayOnVectors(b, loc, epilogue.getRegion().front(), args, kLanes);
  }
  return vector::TransferWriteOp::create(b, loc, v, dest, destAt,
                                         ArrayRef<bool>{inBounds})
      .getResult();
}
