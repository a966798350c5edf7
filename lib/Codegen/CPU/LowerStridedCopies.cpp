//===- LowerStridedCopies.cpp - strided memref.copy -> linalg.copy --------===//
//
// MemRefToLLVM turns a copy between contiguous memrefs into memcpy but a
// strided one into a call to MLIR's runner library (memrefCopy), which a
// self-contained model.so cannot use. Rewrite those as linalg.copy, which
// lowers to plain loops. A subview that is contiguous at an offset (a
// range of channel blocks of a concatenation, [1, k, H, W, 16] out of
// [1, C/16, H, W, 16]) is a memcpy too: as scalar loops, DenseNet-121's
// concatenations were 589 kernel functions, 60% of its LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlc {
#define GEN_PASS_DEF_LOWERSTRIDEDCOPIES
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
/// What MemRefToLLVM copies with memcpy (empty memrefs aside).
bool isContiguous(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && (m.getLayout().isIdentity() ||
               (m.hasStaticShape() && m.getNumElements() > 0 &&
                memref::isStaticShapeAndContiguousRowMajor(m)));
}

struct LowerStridedCopies
    : mlc::impl::LowerStridedCopiesBase<LowerStridedCopies> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!isContiguous(copy.getSource().getType()) ||
          !isContiguous(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
