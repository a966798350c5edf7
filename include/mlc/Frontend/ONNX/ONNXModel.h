//===- ONNXModel.h - ONNX ModelProto as plain C++ data ----------*- C++ -*-===//
//
// The ONNX protobuf is read in one place (lib/Frontend/ONNX/ONNXModel.cpp,
// built with RTTI and exceptions like protobuf wants) and turned into these
// plain structs, checked for what does not need operator knowledge: tensor data
// sizes, external data, dims, value names. The MLIR importer
// (ImportONNX.cpp) and mlc-run's .pb reader use only this header, so
// neither needs protobuf headers.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_FRONTEND_ONNX_ONNXMODEL_H
#define MLC_FRONTEND_ONNX_ONNXMODEL_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlc::onnx {

/// ONNX TensorProto.DataType values we name; others keep their number.
enum DataType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  BFloat16 = 16,
};

/// "FLOAT", "INT64", ... ("dtype 17" for unnamed ones).
std::string dataTypeName(int32_t type);
/// Bytes per element in `Tensor::data`; 0 for strings and unknown types.
int64_t dataTypeSize(int32_t type);

/// A dense tensor; `data` holds the elements little-endian, row-major, with
/// bools as one byte 0/1 and float16/bfloat16 as their 16-bit patterns.
/// String tensors keep no data (nothing in mlc computes on strings).
struct Tensor {
  std::string name;
  int32_t dataType = Undefined;
  std::vector<int64_t> dims;
  std::vector<char> data;

  int64_t numElements() const;
};

struct Dim {
  int64_t value = -1; // -1 when unknown
  std::string param;  // symbolic name, if any
};

/// A graph input or output declaration.
struct ValueInfo {
  std::string name;
  bool isTensor = true; // false for sequence/map/optional types
  int32_t dataType = Undefined;
  bool hasShape = false;
  std::vector<Dim> dims;
};

struct Graph;

struct Attribute {
  enum Kind { Float, Int, String, Tensor, Graph, Floats, Ints, Strings, Other };
  std::string name;
  Kind kind = Other;
  float f = 0;
  int64_t i = 0;
  std::string s;
  onnx::Tensor t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  /// The subgraph of a Graph attribute (If's branches, Loop's and Scan's
  /// bodies). A list of graphs (GRAPHS) is kind Other.
  std::shared_ptr<const ::mlc::onnx::Graph> g; // (`Graph` alone is the Kind)
};

struct Node {
  std::string name; // may be empty in the file; see displayName
  std::string opType;
  std::string domain;               // "" for ai.onnx
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs; // "" marks an unused optional output
  std::vector<Attribute> attributes;
  /// The name for messages: the node's name, or "<OpType>_<index>".
  std::string displayName;

  const Attribute *findAttribute(const std::string &name) const;
};

/// A subgraph. Its nodes may read values of the enclosing graphs by name.
struct Graph {
  std::string name;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<Tensor> initializers;
  std::vector<Node> nodes;
};

/// Names a graph's nodes (and their subgraphs) read from enclosing scopes:
/// neither its inputs, its initializers nor any of its nodes' outputs.
void collectOuterNames(const Graph &graph, std::vector<std::string> &names);

struct Model {
  std::string path;
  int64_t irVersion = 0;
  std::string producer;
  std::string graphName;
  /// Opset version per domain ("" is ai.onnx; "ai.onnx" is folded into "").
  std::map<std::string, int64_t> opsets;
  std::vector<ValueInfo> inputs; // graph inputs that are not initializers
  std::vector<ValueInfo> outputs;
  std::vector<Tensor> initializers;
  std::vector<Node> nodes; // in file order
};

/// Reads and checks a model file. External tensor data is loaded relative
/// to the model's directory. On failure returns false with `error` set to a
/// message naming the offending part (no file prefix).
bool loadModel(const std::string &path, Model &model, std::string &error);

/// Reads a serialized TensorProto (ONNX test data's input_0.pb).
bool loadTensorFile(const std::string &path, Tensor &tensor,
                    std::string &error);

} // namespace mlc::onnx

#endif // MLC_FRONTEND_ONNX_ONNXMODEL_H
