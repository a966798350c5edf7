//===- Evaluator.h - reference evaluation of graph ops ----------*- C++ -*-===//
//
// Evaluates graph ops on host tensors with exactly the float32 semantics of
// the compiled kernels (lib/Conversion/GraphToLinalg): the same accumulation
// order and types, the same libm calls and the same integer, cast and gather
// rules. Constant folding uses it, so folded constants equal what the kernels
// would compute bit for bit; tests use evaluateFunction as an oracle.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_DIALECT_GRAPH_EVALUATOR_H
#define MLC_DIALECT_GRAPH_EVALUATOR_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace mlc::graph {

/// The element types of graph tensors.
/// U8 is the graph's ui8 (quantized values); I8 the signless i8.
enum class ElementKind { F32, I64, I32, I1, I8, U8 };

/// The kind of an MLIR element type; nullopt for types graph ops do not use.
std::optional<ElementKind> getElementKind(mlir::Type type);
mlir::Type getElementType(mlir::MLIRContext *ctx, ElementKind kind);
/// Bytes per element in memory and in .npy files (i1: one byte, 0 or 1).
int64_t getElementSize(ElementKind kind);

/// A dense row-major tensor in host memory. Elements are stored as float
/// (F32), int64_t (I64), int32_t (I32), int8_t (I8), uint8_t (U8) or uint8_t
/// holding 0 or 1 (I1).
class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor.
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  /// A tensor with the given elements (row-major); T must be the storage
  /// type of `kind`.
  template <typename T>
  static HostTensor get(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<T> values) {
    HostTensor t(kind, shape);
    auto dst = t.values<T>();
    assert(dst.size() == values.size() && "element count mismatch");
    std::copy(values.begin(), values.end(), dst.begin());
    return t;
  }

  ElementKind getKind() const { return kind; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const { return numElements; }
  int64_t getSizeInBytes() const { return numElements * getElementSize(kind); }
  /// The tensor type of this tensor.
  mlir::RankedTensorType getType(mlir::MLIRContext *ctx) const;

  /// Typed element access; T must be the storage type of the kind.
  template <typename T> llvm::MutableArrayRef<T> values() {
    return llvm::MutableArrayRef<T>(storage<T>());
  }
  template <typename T> llvm::ArrayRef<T> values() const {
    return llvm::ArrayRef<T>(const_cast<HostTensor *>(this)->storage<T>());
  }

  /// Raw element bytes (native byte order), as in a .npy file's data.
  llvm::ArrayRef<char> getBytes() const;
  llvm::MutableArrayRef<char> getMutableBytes();

  /// Same kind, shape and bytes (so NaNs compare by payload, and -0 != +0).
  bool bitwiseEquals(const HostTensor &other) const;

  friend mlir::ElementsAttr toElementsAttr(mlir::MLIRContext *ctx,
                                           HostTensor &&tensor,
                                           llvm::StringRef blobName);

private:
  template <typename T> std::vector<T> &storage() {
    if constexpr (std::is_same_v<T, float>) {
      assert(kind == ElementKind::F32 && "not an f32 tensor");
      return f32;
    } else if constexpr (std::is_same_v<T, int64_t>) {
      assert(kind == ElementKind::I64 && "not an i64 tensor");
      return i64;
    } else if constexpr (std::is_same_v<T, int32_t>) {
      assert(kind == ElementKind::I32 && "not an i32 tensor");
      return i32;
    } else if constexpr (std::is_same_v<T, int8_t>) {
      assert(kind == ElementKind::I8 && "not an i8 tensor");
      return i8;
    } else {
      static_assert(std::is_same_v<T, uint8_t>, "unsupported element type");
      assert((kind == ElementKind::I1 || kind == ElementKind::U8) &&
             "not an i1 or ui8 tensor");
      return bytes;
    }
  }

  ElementKind kind = ElementKind::F32;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements = 1;
  // Only the vector of `kind` is used; typed vectors keep every access well
  // typed and aligned.
  std::vector<float> f32;
  std::vector<int64_t> i64;
  std::vector<int32_t> i32;
  std::vector<int8_t> i8;
  std::vector<uint8_t> bytes; // I1 and U8
};

/// Results with more elements than this become dense_resource blobs (as
/// weights do in the importer); smaller ones, splats and bool tensors stay
/// readable dense attributes.
constexpr int64_t kMaxDenseAttrElements = 16;

/// Decodes a DenseElementsAttr or DenseResourceElementsAttr (any other
/// ElementsAttr through its APInt/APFloat values). Fails with a message for
/// unsupported element types and missing (e.g. elided) or wrongly sized
/// blobs.
mlir::FailureOr<HostTensor> fromElementsAttr(mlir::ElementsAttr attr,
                                             std::string *error = nullptr);

/// The bytes a dense (not splat) or dense_resource attribute stores: every
/// element row-major in native order, `elementSize` bytes each, aligned to
/// them. None for other attributes, missing blobs and other sizes. A view:
/// large weights are read where they are, not copied.
std::optional<llvm::ArrayRef<char>> storedElements(mlir::ElementsAttr attr,
                                                   int64_t elementSize);

/// storedElements as `T`s (float for f32, and so on).
template <typename T>
std::optional<llvm::ArrayRef<T>> storedValues(mlir::ElementsAttr attr) {
  std::optional<llvm::ArrayRef<char>> raw = storedElements(attr, sizeof(T));
  if (!raw)
    return std::nullopt;
  return llvm::ArrayRef<T>(reinterpret_cast<const T *>(raw->data()),
                           raw->size() / sizeof(T));
}

/// The values of a constant the caller knows to hold `T`s: read where
/// `attr` stores them all (storedValues: weights are not copied), else
/// decoded into `copy`. None if it does not decode.
template <typename T>
std::optional<llvm::ArrayRef<T>>
constantValues(mlir::ElementsAttr attr, std::optional<HostTensor> &copy) {
  if (std::optional<llvm::ArrayRef<T>> stored = storedValues<T>(attr))
    return stored;
  mlir::FailureOr<HostTensor> decoded = fromElementsAttr(attr);
  if (mlir::failed(decoded))
    return std::nullopt;
  copy = std::move(*decoded);
  return llvm::ArrayRef<T>(copy->values<T>());
}

/// Encodes a tensor as a DenseElementsAttr (bool tensors, splats and at most
/// kMaxDenseAttrElements elements) or as a dense_resource blob named after
/// `blobName` (uniqued by the blob manager).
mlir::ElementsAttr toElementsAttr(mlir::MLIRContext *ctx,
                                  const HostTensor &tensor,
                                  llvm::StringRef blobName = "folded");

/// Encodes a tensor like the above; a blob takes over the tensor's storage
/// instead of copying it.
mlir::ElementsAttr toElementsAttr(mlir::MLIRContext *ctx, HostTensor &&tensor,
                                  llvm::StringRef blobName = "folded");

/// Writes the row-major `src` of `shape` with its dims permuted by `perm`
/// (out dim i is in dim perm[i]) into `dst`; elements of 1, 2, 4 or 8 bytes,
/// `src` and `dst` aligned to them. Tiled: large weights transpose at memory
/// speed.
void transposeBytes(llvm::ArrayRef<char> src, llvm::ArrayRef<int64_t> shape,
                    llvm::ArrayRef<int64_t> perm, int64_t elementSize,
                    llvm::MutableArrayRef<char> dst);

/// Evaluates one single-result graph op (graph.constant included) on
/// operands given in operand order. Operand kinds and shapes must match the
/// op's operand types. An op with a region (graph.fusion_group) runs its
/// body with the operands as block arguments. Fails with a message for
/// non-graph ops, mismatching operands and constants that cannot be decoded.
mlir::FailureOr<HostTensor> evaluateOp(mlir::Operation *op,
                                       llvm::ArrayRef<HostTensor> operands,
                                       std::string *error = nullptr);

/// Evaluates a function whose body is one block of graph ops (fusion groups
/// included) ending in a return, on arguments in argument order: the test
/// oracle for whole models.
mlir::FailureOr<llvm::SmallVector<HostTensor>>
evaluateFunction(mlir::FunctionOpInterface func,
                 llvm::ArrayRef<HostTensor> args, std::string *error = nullptr);

} // namespace mlc::graph

#endif // MLC_DIALECT_GRAPH_EVALUATOR_H
