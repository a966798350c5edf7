//===- WeightAttr.cpp - weight bytes -> constant attribute ----------------===//

#include "mlc/Frontend/Common/WeightAttr.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cctype>
#include <memory>

using namespace mlir;

namespace mlc::frontend {

namespace {

/// A blob name from a weight's name: letters, digits and '_', not leading
/// with a digit.
std::string blobName(StringRef name) {
  std::string blob;
  for (char c : name)
    blob += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (blob.empty() || isdigit(static_cast<unsigned char>(blob[0])))
    blob = "w_" + blob;
  return blob;
}

/// Whether the weight stays a plain dense attribute.
bool staysDense(RankedTensorType type) {
  // i1 blobs have no agreed byte layout; bool weights are tiny in practice.
  // Small constants stay readable and foldable.
  return type.getElementType().isInteger(1) ||
         type.getNumElements() <= graph::kMaxDenseAttrElements;
}

} // namespace

ElementsAttr makeWeightAttr(RankedTensorType type, ArrayRef<char> bytes,
                            StringRef name) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bits;
    for (char c : bytes)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  if (staysDense(type))
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  return DenseResourceElementsAttr::get(
      type, blobName(name),
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes,
                                                    elementAlignment(type)));
}

ElementsAttr makeWeightAttr(RankedTensorType type, std::vector<char> &&bytes,
                            StringRef name) {
  size_t align = elementAlignment(type);
  if (staysDense(type) ||
      reinterpret_cast<uintptr_t>(bytes.data()) % align != 0)
    return makeWeightAttr(type, ArrayRef<char>(bytes), name);
  // The blob takes the vector's buffer: no copy of a large weight.
  auto owner = std::make_unique<std::vector<char>>(std::move(bytes));
  ArrayRef<char> data(*owner);
  AsmResourceBlob blob(
      data, align,
      [owner = std::move(owner)](void *, size_t, size_t) mutable {
        owner.reset();
      },
      /*dataIsMutable=*/true);
  return DenseResourceElementsAttr::get(type, blobName(name), std::move(blob));
}

size_t elementAlignment(RankedTensorType type) {
  unsigned bits = type.getElementTypeBitWidth();
  return std::max<size_t>(1, llvm::PowerOf2Ceil(llvm::divideCeil(bits, 8)));
}

} // namespace mlc::frontend
