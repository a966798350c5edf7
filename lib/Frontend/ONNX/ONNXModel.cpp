//===- ONNXModel.cpp - ONNX protobuf -> plain C++ data --------------------===//
//
// The only file that includes the ONNX protobuf headers. Everything that can
// be checked without knowing operators is checked here, so the importer can
// trust sizes and names.
//
//===----------------------------------------------------------------------===//

#include "mlc/Frontend/ONNX/ONNXModel.h"

#include "onnx/onnx_pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <unistd.h>

namespace mlc::onnx {

namespace {

namespace pb = ::onnx;

/// No tensor in a model we can compile has more elements than this; it also
/// keeps byte counts far from overflowing.
constexpr int64_t kMaxElements = int64_t(1) << 40;

std::string quote(const std::string &s) { return "'" + s + "'"; }

bool readFile(const std::string &path, std::string &bytes, std::string &error) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    error = "cannot open file: " + std::string(strerror(errno));
    return false;
  }
  // One buffer of the file's size (a stringstream would hold two).
  std::streamoff size = in.tellg();
  bytes.resize(size_t(size < 0 ? 0 : size));
  in.seekg(0);
  if (!in.read(bytes.data(), std::streamsize(bytes.size()))) {
    error = "cannot read file: " + std::string(strerror(errno));
    return false;
  }
  return true;
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

template <typename T> void appendLE(std::vector<char> &out, T v) {
  char bytes[sizeof(T)];
  memcpy(bytes, &v, sizeof(T));
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

/// Loads external data ("location", "offset", "length") into `data`.
bool loadExternal(const pb::TensorProto &t, const std::string &baseDir,
                  int64_t expectedBytes, std::vector<char> &data,
                  std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    try {
      size_t used = 0;
      if (kv.key() == "location")
        location = kv.value();
      else if (kv.key() == "offset")
        offset = std::stoll(kv.value(), &used);
      else if (kv.key() == "length")
        length = std::stoll(kv.value(), &used);
      if (kv.key() != "location" && used != kv.value().size() &&
          (kv.key() == "offset" || kv.key() == "length"))
        throw std::invalid_argument(kv.key());
    } catch (...) {
      error = "external data entry '" + kv.key() + "' is not a number: '" +
              kv.value() + "'";
      return false;
    }
  }
  if (location.empty()) {
    error = "external data has no 'location'";
    return false;
  }
  bool escapes = location[0] == '/' || location == ".." ||
                 location.rfind("../", 0) == 0 ||
                 location.find("/../") != std::string::npos ||
                 (location.size() >= 3 &&
                  location.compare(location.size() - 3, 3, "/..") == 0);
  if (escapes) {
    error = "external data location '" + location +
            "' must be a relative path inside the model's directory";
    return false;
  }
  if (offset < 0 || (length >= 0 && length != expectedBytes)) {
    error = "external data in '" + location + "' has offset " +
            std::to_string(offset) + " and length " + std::to_string(length) +
            ", but the tensor needs " + std::to_string(expectedBytes) +
            " bytes";
    return false;
  }
  std::string file = baseDir + "/" + location;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error =
        "cannot open external data file '" + location + "': " + strerror(errno);
    return false;
  }
  in.seekg(0, std::ios::end);
  int64_t size = in.tellg();
  if (expectedBytes > size || offset > size - expectedBytes) {
    error = "external data file '" + location + "' has " +
            std::to_string(size) + " bytes, but the tensor needs " +
            std::to_string(expectedBytes) + " bytes at offset " +
            std::to_string(offset);
    return false;
  }
  data.resize(size_t(expectedBytes));
  in.seekg(offset);
  in.read(data.data(), expectedBytes);
  if (!in) {
    error = "cannot read external data file '" + location + "'";
    return false;
  }
  return true;
}

/// `raw`, when given, is the tensor's raw_data read apart from `t` (see
/// scanModel); it is moved into `out`.
bool convertTensor(const pb::TensorProto &t, const std::string &baseDir,
                   Tensor &out, std::string &error,
                   std::vector<char> *raw = nullptr) {
  out.name = t.name();
  out.dataType = t.data_type();
  out.dims.assign(t.dims().begin(), t.dims().end());
  if (t.has_segment()) {
    error = "segmented tensors are not supported";
    return false;
  }
  int64_t n = 1;
  for (int64_t d : out.dims) {
    if (d < 0) {
      error = "has a negative dimension " + std::to_string(d);
      return false;
    }
    if (d != 0 && n > kMaxElements / d) {
      error = "has too many elements (more than 2^40)";
      return false;
    }
    n *= d;
  }
  if (out.dataType == String) {
    if (t.string_data_size() != n && n != 0) {
      error = "has " + std::to_string(t.string_data_size()) +
              " strings but its dims need " + std::to_string(n);
      return false;
    }
    return true;
  }
  int64_t elemSize = dataTypeSize(out.dataType);
  if (elemSize == 0) {
    error = "has unsupported element type " + dataTypeName(out.dataType);
    return false;
  }
  int64_t bytes = n * elemSize;
  auto countError = [&](int64_t have) {
    error = "has " + std::to_string(have) + " elements but its dims need " +
            std::to_string(n);
    return false;
  };
  if (t.data_location() == pb::TensorProto::EXTERNAL)
    return loadExternal(t, baseDir, bytes, out.data, error);
  if (raw || t.has_raw_data()) {
    size_t have = raw ? raw->size() : t.raw_data().size();
    if (int64_t(have) != bytes) {
      error = "has " + std::to_string(have) +
              " bytes of raw data but its dims and type need " +
              std::to_string(bytes);
      return false;
    }
    if (raw)
      out.data = std::move(*raw);
    else
      out.data.assign(t.raw_data().begin(), t.raw_data().end());
    if (out.dataType == Bool)
      for (char &c : out.data)
        c = c != 0;
    return true;
  }
  // The typed field must hold exactly the elements the dims need; checked
  // before reserving, since the dims alone may ask for up to 2^40.
  int64_t have;
  switch (out.dataType) {
  case Float:
    have = t.float_data_size();
    break;
  case Double:
    have = t.double_data_size();
    break;
  case Int64:
    have = t.int64_data_size();
    break;
  case UInt32:
  case UInt64:
    have = t.uint64_data_size();
    break;
  default:
    have = t.int32_data_size();
  }
  if (have != n)
    return countError(have);
  out.data.reserve(size_t(bytes));
  switch (out.dataType) {
  case Float:
    for (float v : t.float_data())
      appendLE(out.data, v);
    return true;
  case Double:
    for (double v : t.double_data())
      appendLE(out.data, v);
    return true;
  case Int64:
    for (int64_t v : t.int64_data())
      appendLE(out.data, v);
    return true;
  case UInt32:
  case UInt64:
    for (uint64_t v : t.uint64_data()) {
      if (out.dataType == UInt32)
        appendLE(out.data, uint32_t(v));
      else
        appendLE(out.data, v);
    }
    return true;
  default:
    // int32_data carries every type of 32 bits or fewer.
    for (int32_t v : t.int32_data()) {
      switch (elemSize) {
      case 1:
        out.data.push_back(char(out.dataType == Bool ? v != 0 : v));
        break;
      case 2:
        appendLE(out.data, uint16_t(v));
        break;
      default:
        appendLE(out.data, v);
      }
    }
    return true;
  }
}

bool convertValueInfo(const pb::ValueInfoProto &v, ValueInfo &out) {
  out.name = v.name();
  // No type at all (allowed in subgraphs: the value's type comes from the
  // enclosing node) reads as a tensor of unknown dtype and shape.
  if (!v.has_type())
    return true;
  if (!v.type().has_tensor_type()) {
    out.isTensor = false;
    return true;
  }
  const auto &tt = v.type().tensor_type();
  out.dataType = tt.elem_type();
  out.hasShape = tt.has_shape();
  for (const auto &d : tt.shape().dim()) {
    Dim dim;
    if (d.has_dim_value())
      dim.value = d.dim_value();
    else
      dim.param = d.dim_param();
    out.dims.push_back(dim);
  }
  return true;
}

/// Subgraphs nested deeper than this are refused (a bound on the importer's
/// recursion; real models nest two or three levels).
constexpr int kMaxGraphDepth = 16;

bool convertGraph(const pb::GraphProto &g, const std::string &baseDir,
                  int depth, Graph &out, std::string &error);

bool convertAttribute(const pb::AttributeProto &a, const std::string &baseDir,
                      int depth, Attribute &out, std::string &error) {
  out.name = a.name();
  switch (a.type()) {
  case pb::AttributeProto::FLOAT:
    out.kind = Attribute::Float;
    out.f = a.f();
    return true;
  case pb::AttributeProto::INT:
    out.kind = Attribute::Int;
    out.i = a.i();
    return true;
  case pb::AttributeProto::STRING:
    out.kind = Attribute::String;
    out.s = a.s();
    return true;
  case pb::AttributeProto::TENSOR:
    out.kind = Attribute::Tensor;
    if (!convertTensor(a.t(), baseDir, out.t, error)) {
      error = "tensor " + error;
      return false;
    }
    return true;
  case pb::AttributeProto::GRAPH: {
    out.kind = Attribute::Graph;
    auto graph = std::make_shared<Graph>();
    if (!convertGraph(a.g(), baseDir, depth + 1, *graph, error))
      return false;
    out.g = std::move(graph);
    return true;
  }
  case pb::AttributeProto::FLOATS:
    out.kind = Attribute::Floats;
    out.floats.assign(a.floats().begin(), a.floats().end());
    return true;
  case pb::AttributeProto::INTS:
    out.kind = Attribute::Ints;
    out.ints.assign(a.ints().begin(), a.ints().end());
    return true;
  case pb::AttributeProto::STRINGS:
    out.kind = Attribute::Strings;
    out.strings.assign(a.strings().begin(), a.strings().end());
    return true;
  default:
    out.kind = Attribute::Other;
    return true;
  }
}

bool parseProto(const std::string &bytes, google::protobuf::MessageLite &msg) {
  // ParseFromString refuses messages over 2 GiB, which is also our limit.
  return msg.ParseFromString(bytes);
}

//===----------------------------------------------------------------------===//
// Reading a model without a second copy of its weights
//===----------------------------------------------------------------------===//

// Parsing the whole file with protobuf would hold the file's bytes and the
// parsed raw_data at once (2x the weights), then convertTensor's copy. So
// the file is streamed field by field: each initializer's raw_data is read
// straight into the buffer that becomes Tensor::data (the importer then
// hands it to MLIR), and every other field is re-encoded and parsed by
// protobuf as usual. Concatenating a message's fields is how protobuf merges
// it, so the re-encoded rest parses exactly as the original would.

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

/// An initializer as read by scanModel: its fields but raw_data, and the
/// raw_data itself.
struct ScannedTensor {
  pb::TensorProto proto;
  std::vector<char> raw;
  bool hasRaw = false;
};

constexpr uint32_t lengthDelimited(int field) {
  return uint32_t(field) << 3 | WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
}

/// Reads the fields of the message at `in` up to its limit (or the end of
/// the input). `take(tag)` reads the fields it wants and returns 1, returns
/// 0 to have the field copied to `rest`, or -1 on an error.
template <typename F>
bool scanFields(CodedInputStream &in, std::string &rest, F &&take) {
  {
    google::protobuf::io::StringOutputStream stream(&rest);
    CodedOutputStream out(&stream);
    while (uint32_t tag = in.ReadTag()) {
      int taken = take(tag);
      if (taken < 0 ||
          (taken == 0 && !WireFormatLite::SkipField(&in, tag, &out)))
        return false;
    }
  } // `out` trims `rest` to what was written.
  return in.ConsumedEntireMessage();
}

/// Reads a length-delimited field's body with `read`, within its limit.
template <typename F> int readNested(CodedInputStream &in, F &&read) {
  uint32_t length;
  if (!in.ReadVarint32(&length))
    return -1;
  CodedInputStream::Limit limit = in.PushLimit(int(length));
  bool ok = read() && in.BytesUntilLimit() == 0;
  in.PopLimit(limit);
  return ok ? 1 : -1;
}

bool scanTensor(CodedInputStream &in, ScannedTensor &t) {
  std::string rest;
  bool ok = scanFields(in, rest, [&](uint32_t tag) {
    if (tag != lengthDelimited(pb::TensorProto::kRawDataFieldNumber))
      return 0;
    uint32_t length;
    if (!in.ReadVarint32(&length) || int64_t(length) > in.BytesUntilLimit())
      return -1;
    // A repeated field keeps its last value, as protobuf does. Appended
    // from the stream's buffer: no zero-filling of hundreds of MB first.
    t.raw = std::vector<char>();
    t.raw.reserve(length);
    t.hasRaw = true;
    while (t.raw.size() < length) {
      const void *data;
      int size;
      if (!in.GetDirectBufferPointer(&data, &size))
        return -1;
      size_t n = std::min<size_t>(size, length - t.raw.size());
      const char *bytes = static_cast<const char *>(data);
      t.raw.insert(t.raw.end(), bytes, bytes + n);
      if (!in.Skip(int(n)))
        return -1;
    }
    return 1;
  });
  return ok && t.proto.ParseFromString(rest);
}

/// Reads a ModelProto from `fd` into `proto`, with the graph's initializers
/// moved to `initializers`.
bool scanModel(int fd, pb::ModelProto &proto,
               std::vector<ScannedTensor> &initializers) {
  google::protobuf::io::FileInputStream file(fd, 1 << 20);
  CodedInputStream in(&file);
  std::string modelRest, graphRest;
  bool hasGraph = false;
  bool ok = scanFields(in, modelRest, [&](uint32_t tag) {
    if (tag != lengthDelimited(pb::ModelProto::kGraphFieldNumber))
      return 0;
    hasGraph = true;
    return readNested(in, [&] {
      return scanFields(in, graphRest, [&](uint32_t graphTag) {
        if (graphTag !=
            lengthDelimited(pb::GraphProto::kInitializerFieldNumber))
          return 0;
        initializers.emplace_back();
        return readNested(in,
                          [&] { return scanTensor(in, initializers.back()); });
      });
    });
  });
  if (!ok || !proto.ParseFromString(modelRest))
    return false;
  return !hasGraph || proto.mutable_graph()->ParseFromString(graphRest);
}

bool convertGraphIO(const pb::GraphProto &g,
                    const std::set<std::string> &initNames,
                    std::vector<ValueInfo> &inputs,
                    std::vector<ValueInfo> &outputs, std::string &error) {
  std::set<std::string> inputNames;
  for (const auto &v : g.input()) {
    // Since IR version 4 initializers may be listed as inputs too; they are
    // weights, not inputs.
    if (initNames.count(v.name()))
      continue;
    if (!inputNames.insert(v.name()).second) {
      error = "graph input " + quote(v.name()) + " is declared twice";
      return false;
    }
    ValueInfo info;
    convertValueInfo(v, info);
    inputs.push_back(std::move(info));
  }
  for (const auto &v : g.output()) {
    ValueInfo info;
    convertValueInfo(v, info);
    outputs.push_back(std::move(info));
  }
  return true;
}

bool convertNodes(const pb::GraphProto &g, const std::string &baseDir,
                  int depth, std::vector<Node> &nodes, std::string &error) {
  for (int i = 0; i < g.node_size(); ++i) {
    const pb::NodeProto &n = g.node(i);
    Node node;
    node.name = n.name();
    node.opType = n.op_type();
    node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    node.displayName =
        node.name.empty() ? node.opType + "_" + std::to_string(i) : node.name;
    for (const auto &a : n.attribute()) {
      Attribute attr;
      if (!convertAttribute(a, baseDir, depth, attr, error)) {
        error = "attribute " + quote(a.name()) + " of node " +
                quote(node.displayName) + ": " + error;
        return false;
      }
      node.attributes.push_back(std::move(attr));
    }
    nodes.push_back(std::move(node));
  }
  return true;
}

bool convertGraph(const pb::GraphProto &g, const std::string &baseDir,
                  int depth, Graph &out, std::string &error) {
  if (depth > kMaxGraphDepth) {
    error = "subgraphs are nested more than " + std::to_string(kMaxGraphDepth) +
            " levels deep";
    return false;
  }
  out.name = g.name();
  std::set<std::string> initNames;
  for (const pb::TensorProto &t : g.initializer()) {
    Tensor tensor;
    if (t.name().empty() || !initNames.insert(t.name()).second) {
      error = "subgraph " + quote(g.name()) + " has an initializer " +
              (t.name().empty() ? "without a name"
                                : quote(t.name()) + " defined twice");
      return false;
    }
    if (!convertTensor(t, baseDir, tensor, error)) {
      error = "initializer " + quote(t.name()) + " " + error;
      return false;
    }
    out.initializers.push_back(std::move(tensor));
  }
  if (g.sparse_initializer_size()) {
    error = "sparse initializers are not supported";
    return false;
  }
  if (!convertGraphIO(g, initNames, out.inputs, out.outputs, error))
    return false;
  return convertNodes(g, baseDir, depth, out.nodes, error);
}

} // namespace

std::string dataTypeName(int32_t type) {
  switch (type) {
  case Float:
    return "FLOAT";
  case UInt8:
    return "UINT8";
  case Int8:
    return "INT8";
  case UInt16:
    return "UINT16";
  case Int16:
    return "INT16";
  case Int32:
    return "INT32";
  case Int64:
    return "INT64";
  case String:
    return "STRING";
  case Bool:
    return "BOOL";
  case Float16:
    return "FLOAT16";
  case Double:
    return "DOUBLE";
  case UInt32:
    return "UINT32";
  case UInt64:
    return "UINT64";
  case BFloat16:
    return "BFLOAT16";
  case 14:
    return "COMPLEX64";
  case 15:
    return "COMPLEX128";
  default:
    return "dtype " + std::to_string(type);
  }
}

int64_t dataTypeSize(int32_t type) {
  switch (type) {
  case Bool:
  case Int8:
  case UInt8:
    return 1;
  case Int16:
  case UInt16:
  case Float16:
  case BFloat16:
    return 2;
  case Float:
  case Int32:
  case UInt32:
    return 4;
  case Double:
  case Int64:
  case UInt64:
    return 8;
  default:
    return 0;
  }
}

int64_t Tensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

const Attribute *Node::findAttribute(const std::string &name) const {
  for (const Attribute &a : attributes)
    if (a.name == name)
      return &a;
  return nullptr;
}

void collectOuterNames(const Graph &graph, std::vector<std::string> &names) {
  std::set<std::string> defined;
  for (const ValueInfo &v : graph.inputs)
    defined.insert(v.name);
  for (const Tensor &t : graph.initializers)
    defined.insert(t.name);
  for (const Node &n : graph.nodes)
    defined.insert(n.outputs.begin(), n.outputs.end());
  std::set<std::string> seen;
  auto use = [&](const std::string &name) {
    if (!name.empty() && !defined.count(name) && seen.insert(name).second)
      names.push_back(name);
  };
  for (const Node &n : graph.nodes) {
    for (const std::string &in : n.inputs)
      use(in);
    for (const Attribute &a : n.attributes) {
      if (!a.g)
        continue;
      std::vector<std::string> inner;
      collectOuterNames(*a.g, inner);
      for (const std::string &name : inner)
        use(name);
    }
  }
}

bool loadModel(const std::string &path, Model &model, std::string &error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open file: " + std::string(strerror(errno));
    return false;
  }
  off_t size = lseek(fd, 0, SEEK_END);
  if (size == 0) {
    close(fd);
    error = "empty file, not an ONNX model";
    return false;
  }
  pb::ModelProto proto;
  std::vector<ScannedTensor> scanned;
  // The stream's byte limit (2 GiB) is also our limit on a model file.
  bool parsed =
      size > 0 && lseek(fd, 0, SEEK_SET) == 0 && scanModel(fd, proto, scanned);
  close(fd);
  if (!parsed) {
    error = "cannot parse the file as an ONNX ModelProto (truncated, "
            "corrupt or not ONNX)";
    return false;
  }
  if (!proto.has_graph()) {
    error = "cannot parse the file as an ONNX model: it has no graph";
    return false;
  }
  model.path = path;
  model.irVersion = proto.ir_version();
  model.producer = proto.producer_name();
  for (const auto &op : proto.opset_import()) {
    std::string domain = op.domain() == "ai.onnx" ? "" : op.domain();
    model.opsets[domain] = op.version();
  }
  const pb::GraphProto &g = proto.graph();
  model.graphName = g.name();
  std::string baseDir = directoryOf(path);

  std::set<std::string> initNames;
  for (ScannedTensor &s : scanned) {
    const pb::TensorProto &t = s.proto;
    Tensor tensor;
    if (t.name().empty()) {
      error = "an initializer has no name";
      return false;
    }
    if (!convertTensor(t, baseDir, tensor, error,
                       s.hasRaw ? &s.raw : nullptr)) {
      error = "initializer " + quote(t.name()) + " " + error;
      return false;
    }
    if (!initNames.insert(t.name()).second) {
      error = "initializer " + quote(t.name()) + " is defined twice";
      return false;
    }
    model.initializers.push_back(std::move(tensor));
  }
  scanned.clear();
  if (g.sparse_initializer_size()) {
    error = "sparse initializers are not supported";
    return false;
  }
  if (!convertGraphIO(g, initNames, model.inputs, model.outputs, error))
    return false;
  return convertNodes(g, baseDir, 0, model.nodes, error);
}

bool loadTensorFile(const std::string &path, Tensor &tensor,
                    std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  pb::TensorProto proto;
  if (!parseProto(bytes, proto)) {
    error = "cannot parse the file as an ONNX TensorProto";
    return false;
  }
  if (proto.data_location() == pb::TensorProto::EXTERNAL) {
    error = "tensor files with external data are not supported";
    return false;
  }
  if (!convertTensor(proto, directoryOf(path), tensor, error)) {
    error = "the tensor " + error;
    return false;
  }
  return true;
}

} // namespace mlc::onnx
