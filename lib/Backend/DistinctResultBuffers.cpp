//===- DistinctResultBuffers.cpp - one buffer per returned memref ---------===//
//
// Each model output lands in its own caller buffer. When one buffer is
// returned twice (outputs that CSE merged, or an output listed twice), copy
// it for every repeat so the out-param promotion that follows sees distinct
// results.
//
//===----------------------------------------------------------------------===//

#include "mlc/Backend/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlc {
#define GEN_PASS_DEF_DISTINCTRESULTBUFFERS
#include "mlc/Backend/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
struct DistinctResultBuffers
    : mlc::impl::DistinctResultBuffersBase<DistinctResultBuffers> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type || !type.hasStaticShape() || seen.insert(value).second)
          continue;
        auto fresh = MemRefType::get(type.getShape(), type.getElementType());
        Value copy = memref::AllocOp::create(b, ret.getLoc(), fresh);
        memref::CopyOp::create(b, ret.getLoc(), value, copy);
        if (fresh != type)
          copy = memref::CastOp::create(b, ret.getLoc(), type, copy);
        operand.set(copy);
      }
    });
  }
};
} // namespace
