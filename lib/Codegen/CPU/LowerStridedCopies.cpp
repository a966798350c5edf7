//===- LowerStridedCopies.cpp - strided memref.copy -> linalg.copy --------===//
//
// MemRefToLLVM turns a copy between contiguous memrefs into memcpy but a
// strided one into a call to MLIR's runner library (memrefCopy), which a
// self-contained model.so cannot use. Rewrite those as linalg.copy, which
// lowers to plain loops.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlc {
#define GEN_PASS_DEF_LOWERSTRIDEDCOPIES
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {
bool isContiguous(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && m.getLayout().isIdentity();
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
