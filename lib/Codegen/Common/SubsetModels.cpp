//===- SubsetModels.cpp - tensor slices as subsets, decided cheaply -------===//
//
// One-shot bufferization asks, for each write into a tensor, whether a read
// of the same tensor is an extract_slice of the very subset the write's
// insert_slice fills (then both can share the buffer). MLIR's model answers
// with ValueBoundsConstraintSet::areEquivalentSlices, which builds a
// constraint set and runs Fourier-Motzkin for every offset, size and stride,
// even for two uses of one SSA value: a quarter of one-shot's 0.9 s on
// DenseNet-121, whose tile loops extract and insert at the same induction
// variables. Equal SSA values or constants are equal, unequal constants are
// not; the solver is asked only about the rest, so the answers are MLIR's.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/Common/SubsetModels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace {

/// Whether `a` and `b` are equal when that can be seen without the solver:
/// true or false for two constants, true for one SSA value; else unknown.
std::optional<bool> plainlyEqual(OpFoldResult a, OpFoldResult b) {
  std::optional<int64_t> x = getConstantIntValue(a);
  std::optional<int64_t> y = getConstantIntValue(b);
  if (x && y)
    return *x == *y;
  if (a == b)
    return true;
  return std::nullopt;
}

/// Whether the two slices are equivalent: true, false, or unknown when some
/// pair is neither plainly equal nor plainly different.
std::optional<bool> plainlyEquivalent(const HyperrectangularSlice &a,
                                      const HyperrectangularSlice &b) {
  bool unknown = false;
  auto compare = [&](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    for (auto [u, v] : llvm::zip_equal(x, y)) {
      std::optional<bool> equal = plainlyEqual(u, v);
      if (!equal)
        unknown = true;
      else if (!*equal)
        return false;
    }
    return true;
  };
  if (!compare(a.getMixedOffsets(), b.getMixedOffsets()) ||
      !compare(a.getMixedSizes(), b.getMixedSizes()) ||
      !compare(a.getMixedStrides(), b.getMixedStrides()))
    return false;
  if (unknown)
    return std::nullopt;
  return true;
}

template <typename OpTy>
struct SliceSubsetModel
    : SubsetOpInterface::ExternalModel<SliceSubsetModel<OpTy>, OpTy> {
  FailureOr<HyperrectangularSlice>
  getAccessedHyperrectangularSlice(Operation *op) const {
    return HyperrectangularSlice(cast<OffsetSizeAndStrideOpInterface>(op));
  }

  // As detail::defaultOperatesOnEquivalentSubset, with the plain answer
  // first.
  bool operatesOnEquivalentSubset(
      Operation *op, SubsetOpInterface candidate,
      function_ref<bool(Value, Value)> equivalenceFn) const {
    FailureOr<HyperrectangularSlice> other =
        candidate.getAccessedHyperrectangularSlice();
    if (failed(other))
      return false;
    if (!equivalenceFn(cast<SubsetOpInterface>(op).getTensorContainer(),
                       candidate.getTensorContainer()))
      return false;
    HyperrectangularSlice slice(cast<OffsetSizeAndStrideOpInterface>(op));
    if (std::optional<bool> plain = plainlyEquivalent(slice, *other))
      return *plain;
    FailureOr<bool> equivalent = ValueBoundsConstraintSet::areEquivalentSlices(
        op->getContext(), slice, *other);
    return succeeded(equivalent) && *equivalent;
  }
};

} // namespace

void mlc::registerSubsetModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        SliceSubsetModel<tensor::ExtractSliceOp>>(*context);
    tensor::InsertSliceOp::attachInterface<
        SliceSubsetModel<tensor::InsertSliceOp>>(*context);
    tensor::ParallelInsertSliceOp::attachInterface<
        SliceSubsetModel<tensor::ParallelInsertSliceOp>>(*context);
  });
}
