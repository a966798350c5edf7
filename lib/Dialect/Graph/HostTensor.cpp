//===- HostTensor.cpp - the evaluator's tensors and ElementsAttrs ---------===//
//
// Host tensors (shape, element kind, bytes) and their conversion from and to
// ElementsAttrs (dense and resource-backed).
//
//===----------------------------------------------------------------------===//

#include "EvaluatorSupport.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <memory>

using namespace mlir;
using namespace mlc::graph;
using mlc::graph::detail::fail;
using mlc::graph::detail::typeStr;

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

std::optional<ElementKind> mlc::graph::getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isSignlessInteger(64))
    return ElementKind::I64;
  if (type.isSignlessInteger(32))
    return ElementKind::I32;
  if (type.isSignlessInteger(1))
    return ElementKind::I1;
  if (type.isSignlessInteger(8))
    return ElementKind::I8;
  if (type.isUnsignedInteger(8))
    return ElementKind::U8;
  return std::nullopt;
}

Type mlc::graph::getElementType(MLIRContext *ctx, ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return Float32Type::get(ctx);
  case ElementKind::I64:
    return IntegerType::get(ctx, 64);
  case ElementKind::I32:
    return IntegerType::get(ctx, 32);
  case ElementKind::I1:
    return IntegerType::get(ctx, 1);
  case ElementKind::I8:
    return IntegerType::get(ctx, 8);
  case ElementKind::U8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  }
  llvm_unreachable("unknown element kind");
}

int64_t mlc::graph::getElementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::I64:
    return 8;
  case ElementKind::I1:
  case ElementKind::I8:
  case ElementKind::U8:
    return 1;
  }
  llvm_unreachable("unknown element kind");
}

HostTensor::HostTensor(ElementKind kind, ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()) {
  numElements = 1;
  for (int64_t d : shape)
    numElements *= d;
  switch (kind) {
  case ElementKind::F32:
    f32.assign(numElements, 0.0f);
    break;
  case ElementKind::I64:
    i64.assign(numElements, 0);
    break;
  case ElementKind::I32:
    i32.assign(numElements, 0);
    break;
  case ElementKind::I1:
  case ElementKind::U8:
    bytes.assign(numElements, 0);
    break;
  case ElementKind::I8:
    i8.assign(numElements, 0);
    break;
  }
}

RankedTensorType HostTensor::getType(MLIRContext *ctx) const {
  return RankedTensorType::get(shape, getElementType(ctx, kind));
}

MutableArrayRef<char> HostTensor::getMutableBytes() {
  char *data = nullptr;
  switch (kind) {
  case ElementKind::F32:
    data = reinterpret_cast<char *>(f32.data());
    break;
  case ElementKind::I64:
    data = reinterpret_cast<char *>(i64.data());
    break;
  case ElementKind::I32:
    data = reinterpret_cast<char *>(i32.data());
    break;
  case ElementKind::I1:
  case ElementKind::U8:
    data = reinterpret_cast<char *>(bytes.data());
    break;
  case ElementKind::I8:
    data = reinterpret_cast<char *>(i8.data());
    break;
  }
  return MutableArrayRef<char>(data, getSizeInBytes());
}

ArrayRef<char> HostTensor::getBytes() const {
  return const_cast<HostTensor *>(this)->getMutableBytes();
}

bool HostTensor::bitwiseEquals(const HostTensor &other) const {
  return kind == other.kind && shape == other.shape &&
         getBytes() == other.getBytes();
}

//===----------------------------------------------------------------------===//
// ElementsAttr conversion
//===----------------------------------------------------------------------===//

namespace {

template <typename T, typename Range>
void copyValues(HostTensor &t, Range &&range) {
  auto dst = t.values<T>();
  int64_t i = 0;
  for (auto v : range)
    dst[i++] = static_cast<T>(v);
}

} // namespace

FailureOr<HostTensor> mlc::graph::fromElementsAttr(ElementsAttr attr,
                                                   std::string *error) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape())
    return fail(error, "constant of type " + typeStr(attr.getType()) +
                           " is not a statically shaped tensor");
  std::optional<ElementKind> kind = getElementKind(type.getElementType());
  if (!kind)
    return fail(error, "unsupported constant element type " +
                           typeStr(type.getElementType()));
  HostTensor t(*kind, type.getShape());

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    switch (*kind) {
    case ElementKind::F32:
      copyValues<float>(t, dense.getValues<float>());
      break;
    case ElementKind::I64:
      copyValues<int64_t>(t, dense.getValues<int64_t>());
      break;
    case ElementKind::I32:
      copyValues<int32_t>(t, dense.getValues<int32_t>());
      break;
    case ElementKind::I1:
      copyValues<uint8_t>(t, dense.getValues<bool>());
      break;
    case ElementKind::I8:
      copyValues<int8_t>(t, dense.getValues<int8_t>());
      break;
    case ElementKind::U8:
      copyValues<uint8_t>(t, dense.getValues<uint8_t>());
      break;
    }
    return t;
  }

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return fail(error, "dense_resource blob '" +
                             resource.getRawHandle().getKey() +
                             "' has no data (elided?)");
    ArrayRef<char> data = blob->getData();
    if ((int64_t)data.size() != t.getSizeInBytes())
      return fail(error, "dense_resource blob '" +
                             resource.getRawHandle().getKey() + "' holds " +
                             Twine(data.size()) + " bytes, " + typeStr(type) +
                             " needs " + Twine(t.getSizeInBytes()));
    if (*kind == ElementKind::I1) {
      // One byte per bool; normalize to 0/1.
      auto dst = t.values<uint8_t>();
      for (int64_t i = 0, e = t.getNumElements(); i < e; ++i)
        dst[i] = data[i] != 0;
    } else if (!data.empty()) {
      std::memcpy(t.getMutableBytes().data(), data.data(), data.size());
    }
    return t;
  }

  // Other ElementsAttr implementations, through their APFloat/APInt values.
  if (*kind == ElementKind::F32) {
    if (auto values = attr.tryGetValues<APFloat>()) {
      auto dst = t.values<float>();
      int64_t i = 0;
      for (APFloat v : *values)
        dst[i++] = v.convertToFloat();
      return t;
    }
  } else if (auto values = attr.tryGetValues<APInt>()) {
    int64_t i = 0;
    for (APInt v : *values) {
      switch (*kind) {
      case ElementKind::I64:
        t.values<int64_t>()[i] = v.getSExtValue();
        break;
      case ElementKind::I32:
        t.values<int32_t>()[i] = static_cast<int32_t>(v.getSExtValue());
        break;
      case ElementKind::I8:
        t.values<int8_t>()[i] = static_cast<int8_t>(v.getSExtValue());
        break;
      case ElementKind::U8:
        t.values<uint8_t>()[i] = static_cast<uint8_t>(v.getZExtValue());
        break;
      default:
        t.values<uint8_t>()[i] = !v.isZero();
        break;
      }
      ++i;
    }
    return t;
  }
  return fail(error, "cannot read the values of this constant attribute");
}

std::optional<ArrayRef<char>> mlc::graph::storedElements(ElementsAttr attr,
                                                         int64_t elementSize) {
  ArrayRef<char> raw;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    raw = blob->getData();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(attr);
             dense && !dense.isSplat()) {
    raw = dense.getRawData();
  } else {
    return std::nullopt;
  }
  auto type = cast<ShapedType>(attr.getType());
  if (!type.hasStaticShape() ||
      int64_t(raw.size()) != type.getNumElements() * elementSize ||
      reinterpret_cast<uintptr_t>(raw.data()) % elementSize)
    return std::nullopt;
  return raw;
}

namespace {
template <typename T> bool isSplat(ArrayRef<T> values) {
  // Bitwise, so that -0 and +0 (or NaN payloads) are not merged.
  for (const T &v : values)
    if (std::memcmp(&v, &values[0], sizeof(T)) != 0)
      return false;
  return true;
}

/// `owned`, when given, holds `values` and may be taken by the blob.
template <typename T>
ElementsAttr toDenseOrBlob(RankedTensorType type, ArrayRef<T> values,
                           StringRef blobName,
                           std::vector<T> *owned = nullptr) {
  if (!values.empty() && isSplat(values))
    return DenseElementsAttr::get(type, values.front());
  if ((int64_t)values.size() <= kMaxDenseAttrElements)
    return DenseElementsAttr::get(type, values);
  if (!owned)
    return DenseResourceElementsAttr::get(
        type, blobName, HeapAsmResourceBlob::allocateAndCopyInferAlign(values));
  auto keep = std::make_unique<std::vector<T>>(std::move(*owned));
  ArrayRef<char> data(reinterpret_cast<const char *>(keep->data()),
                      keep->size() * sizeof(T));
  return DenseResourceElementsAttr::get(
      type, blobName,
      AsmResourceBlob(
          data, alignof(T),
          [keep = std::move(keep)](void *, size_t, size_t) mutable {
            keep.reset();
          },
          /*dataIsMutable=*/true));
}
} // namespace

ElementsAttr mlc::graph::toElementsAttr(MLIRContext *ctx,
                                        const HostTensor &tensor,
                                        StringRef blobName) {
  RankedTensorType type = tensor.getType(ctx);
  switch (tensor.getKind()) {
  case ElementKind::F32:
    return toDenseOrBlob(type, tensor.values<float>(), blobName);
  case ElementKind::I64:
    return toDenseOrBlob(type, tensor.values<int64_t>(), blobName);
  case ElementKind::I32:
    return toDenseOrBlob(type, tensor.values<int32_t>(), blobName);
  case ElementKind::I8:
    return toDenseOrBlob(type, tensor.values<int8_t>(), blobName);
  case ElementKind::U8:
    return toDenseOrBlob(type, tensor.values<uint8_t>(), blobName);
  case ElementKind::I1: {
    // i1 blobs have no agreed byte layout (as in the importer): always dense.
    SmallVector<bool> bits(tensor.values<uint8_t>().begin(),
                           tensor.values<uint8_t>().end());
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  }
  llvm_unreachable("unknown element kind");
}

ElementsAttr mlc::graph::toElementsAttr(MLIRContext *ctx, HostTensor &&tensor,
                                        StringRef blobName) {
  RankedTensorType type = tensor.getType(ctx);
  switch (tensor.getKind()) {
  case ElementKind::F32:
    return toDenseOrBlob(type, ArrayRef<float>(tensor.f32), blobName,
                         &tensor.f32);
  case ElementKind::I64:
    return toDenseOrBlob(type, ArrayRef<int64_t>(tensor.i64), blobName,
                         &tensor.i64);
  case ElementKind::I32:
    return toDenseOrBlob(type, ArrayRef<int32_t>(tensor.i32), blobName,
                         &tensor.i32);
  case ElementKind::I8:
    return toDenseOrBlob(type, ArrayRef<int8_t>(tensor.i8), blobName,
                         &tensor.i8);
  case ElementKind::U8:
    return toDenseOrBlob(type, ArrayRef<uint8_t>(tensor.bytes), blobName,
                         &tensor.bytes);
  case ElementKind::I1:
    return toElementsAttr(ctx, static_cast<const HostTensor &>(tensor),
                          blobName);
  }
  llvm_unreachable("unknown element kind");
}
