//===- WeightAttr.cpp - weight bytes -> constant attribute ----------------===//

#include "mlc/Frontend/Common/WeightAttr.h"
#include "mlc/Dialect/Graph/Evaluator.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cctype>

using namespace mlir;

namespace mlc::frontend {

ElementsAttr makeWeightAttr(RankedTensorType type, ArrayRef<char> bytes,
                            StringRef name) {
  if (type.getElementType().isInteger(1)) {
    // i1 blobs have no agreed byte layout; bool weights are tiny in practice.
    SmallVector<bool> bits;
    for (char c : bytes)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  // Small constants stay plain dense attributes (readable, foldable).
  if (type.getNumElements() <= graph::kMaxDenseAttrElements)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  std::string blob;
  for (char c : name)
    blob += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (blob.empty() || isdigit(static_cast<unsigned char>(blob[0])))
    blob = "w_" + blob;
  return DenseResourceElementsAttr::get(
      type, blob, HeapAsmResourceBlob::allocateAndCopyInferAlign(bytes));
}

} // namespace mlc::frontend
