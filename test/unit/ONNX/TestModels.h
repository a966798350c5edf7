//===- TestModels.h - ONNX protobuf builders for the unit tests -*- C++ -*-===//
//
// Small helpers that build ModelProto/TensorProto messages with the ONNX
// protobuf API and write them to a per-process scratch directory. Shared by
// the loader tests (ONNXModelTest.cpp) and the importer tests
// (ImportONNXTest.cpp). `pb` is the protobuf namespace; mlc's own structs
// live in mlc::onnx.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_TEST_UNIT_ONNX_TESTMODELS_H
#define MLC_TEST_UNIT_ONNX_TESTMODELS_H

#include "onnx/onnx_pb.h"

#include "Support/ScratchDir.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace onnxtest {

namespace pb = ::onnx;
namespace fs = std::filesystem;

inline const fs::path &scratchDir() {
  return mlc::test::scratchDir("mlc-onnx-tests");
}

inline std::string scratch(const std::string &name) {
  return (scratchDir() / name).string();
}

inline std::string writeBytes(const std::string &name,
                              const std::string &bytes) {
  std::string path = scratch(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  return path;
}

inline std::string writeModel(const std::string &name,
                              const pb::ModelProto &model) {
  return writeBytes(name, model.SerializeAsString());
}

inline std::string writeTensor(const std::string &name,
                               const pb::TensorProto &t) {
  return writeBytes(name, t.SerializeAsString());
}

/// A model with an ai.onnx opset import and an empty graph.
inline pb::ModelProto makeModel(int64_t opset = 13,
                                const std::string &graphName = "test_graph") {
  pb::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("mlc-onnx-tests");
  auto *op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  m.mutable_graph()->set_name(graphName);
  return m;
}

/// Fills `v` as a tensor value; dims < 0 become the symbolic dim "N".
inline void setTensorType(pb::ValueInfoProto *v, const std::string &name,
                          int32_t elemType, const std::vector<int64_t> &dims,
                          bool withShape = true) {
  v->set_name(name);
  auto *tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elemType);
  if (!withShape)
    return;
  auto *shape = tt->mutable_shape();
  for (int64_t d : dims) {
    auto *dim = shape->add_dim();
    if (d >= 0)
      dim->set_dim_value(d);
    else
      dim->set_dim_param("N");
  }
}

inline void addInput(pb::GraphProto *g, const std::string &name,
                     int32_t elemType, const std::vector<int64_t> &dims) {
  setTensorType(g->add_input(), name, elemType, dims);
}

inline void addOutput(pb::GraphProto *g, const std::string &name,
                      int32_t elemType, const std::vector<int64_t> &dims) {
  setTensorType(g->add_output(), name, elemType, dims);
}

inline pb::NodeProto *addNode(pb::GraphProto *g, const std::string &opType,
                              const std::vector<std::string> &inputs,
                              const std::vector<std::string> &outputs,
                              const std::string &name = "") {
  auto *n = g->add_node();
  n->set_op_type(opType);
  if (!name.empty())
    n->set_name(name);
  for (const auto &i : inputs)
    n->add_input(i);
  for (const auto &o : outputs)
    n->add_output(o);
  return n;
}

inline void attrInt(pb::NodeProto *n, const std::string &name, int64_t v) {
  auto *a = n->add_attribute();
  a->set_name(name);
  a->set_type(pb::AttributeProto::INT);
  a->set_i(v);
}

inline void attrInts(pb::NodeProto *n, const std::string &name,
                     const std::vector<int64_t> &v) {
  auto *a = n->add_attribute();
  a->set_name(name);
  a->set_type(pb::AttributeProto::INTS);
  for (int64_t x : v)
    a->add_ints(x);
}

inline void attrString(pb::NodeProto *n, const std::string &name,
                       const std::string &v) {
  auto *a = n->add_attribute();
  a->set_name(name);
  a->set_type(pb::AttributeProto::STRING);
  a->set_s(v);
}

inline void attrFloat(pb::NodeProto *n, const std::string &name, float v) {
  auto *a = n->add_attribute();
  a->set_name(name);
  a->set_type(pb::AttributeProto::FLOAT);
  a->set_f(v);
}

template <typename T> std::string rawBytes(const std::vector<T> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()),
                     v.size() * sizeof(T));
}

/// A tensor with its elements in raw_data.
template <typename T>
pb::TensorProto rawTensor(const std::string &name, int32_t type,
                          const std::vector<int64_t> &dims,
                          const std::vector<T> &values) {
  pb::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims)
    t.add_dims(d);
  t.set_raw_data(rawBytes(values));
  return t;
}

inline pb::TensorProto floatTensor(const std::string &name,
                                   const std::vector<int64_t> &dims,
                                   const std::vector<float> &values) {
  return rawTensor(name, pb::TensorProto::FLOAT, dims, values);
}

inline pb::TensorProto int64Tensor(const std::string &name,
                                   const std::vector<int64_t> &dims,
                                   const std::vector<int64_t> &values) {
  return rawTensor(name, pb::TensorProto::INT64, dims, values);
}

/// `n` floats 0.01, 0.02, ... (deterministic weights).
inline std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(i + 1) * 0.01f;
  return v;
}

/// The element bytes of a value, for comparing with Tensor::data.
template <typename T> std::vector<char> bytesOf(const std::vector<T> &v) {
  std::vector<char> out(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(out.data(), v.data(), out.size());
  return out;
}

} // namespace onnxtest

#endif // MLC_TEST_UNIT_ONNX_TESTMODELS_H
