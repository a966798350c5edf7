//===- ONNXModelTest.cpp - Unit tests of the ONNX protobuf reader ---------===//
//
// loadModel / loadTensorFile on models written here with the ONNX protobuf
// API: every initializer encoding, external data, value infos, nodes and
// attributes, and the message of each error.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include "TestModels.h"
#include "mlc/Frontend/ONNX/ONNXModel.h"

#include <cerrno>
#include <climits>

using namespace onnxtest;
namespace mo = mlc::onnx;

namespace {

/// Loads `model` written as `name`; REQUIREs success.
mo::Model loadOk(const std::string &name, const pb::ModelProto &model) {
  std::string path = writeModel(name, model);
  mo::Model m;
  std::string error;
  bool ok = mo::loadModel(path, m, error);
  INFO("error: " << error);
  REQUIRE(ok);
  CHECK(error.empty());
  return m;
}

/// Loads `model` written as `name`; REQUIREs failure and returns the error.
std::string loadError(const std::string &name, const pb::ModelProto &model) {
  std::string path = writeModel(name, model);
  mo::Model m;
  std::string error;
  REQUIRE_FALSE(mo::loadModel(path, m, error));
  return error;
}

/// A model whose only content is `init` as an initializer.
pb::ModelProto modelWithInit(const pb::TensorProto &init) {
  pb::ModelProto m = makeModel();
  *m.mutable_graph()->add_initializer() = init;
  return m;
}

/// A copy: callers pass the temporary Model from loadOk.
mo::Tensor onlyInit(const mo::Model &m) {
  REQUIRE(m.initializers.size() == 1);
  return m.initializers[0];
}

pb::TensorProto typedTensor(const std::string &name, int32_t type,
                            const std::vector<int64_t> &dims) {
  pb::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims)
    t.add_dims(d);
  return t;
}

void addExternal(pb::TensorProto &t, const std::string &key,
                 const std::string &value) {
  auto *kv = t.add_external_data();
  kv->set_key(key);
  kv->set_value(value);
}

/// A FLOAT [2] tensor stored externally in `location`.
pb::TensorProto externalTensor(const std::string &location,
                               const std::string &offset = "",
                               const std::string &length = "") {
  pb::TensorProto t = typedTensor("ext", pb::TensorProto::FLOAT, {2});
  t.set_data_location(pb::TensorProto::EXTERNAL);
  addExternal(t, "location", location);
  if (!offset.empty())
    addExternal(t, "offset", offset);
  if (!length.empty())
    addExternal(t, "length", length);
  return t;
}

} // namespace

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

TEST_CASE("dataTypeName and dataTypeSize", "[onnx][model]") {
  CHECK(mo::dataTypeName(mo::Float) == "FLOAT");
  CHECK(mo::dataTypeName(mo::Int64) == "INT64");
  CHECK(mo::dataTypeName(mo::Bool) == "BOOL");
  CHECK(mo::dataTypeName(mo::Float16) == "FLOAT16");
  CHECK(mo::dataTypeName(mo::BFloat16) == "BFLOAT16");
  CHECK(mo::dataTypeName(mo::Double) == "DOUBLE");
  CHECK(mo::dataTypeName(mo::Int8) == "INT8");
  CHECK(mo::dataTypeName(mo::String) == "STRING");
  CHECK(mo::dataTypeName(14) == "COMPLEX64");
  CHECK(mo::dataTypeName(17) == "dtype 17");
  CHECK(mo::dataTypeName(0) == "dtype 0");

  CHECK(mo::dataTypeSize(mo::Bool) == 1);
  CHECK(mo::dataTypeSize(mo::Int8) == 1);
  CHECK(mo::dataTypeSize(mo::UInt8) == 1);
  CHECK(mo::dataTypeSize(mo::Float16) == 2);
  CHECK(mo::dataTypeSize(mo::BFloat16) == 2);
  CHECK(mo::dataTypeSize(mo::Int16) == 2);
  CHECK(mo::dataTypeSize(mo::Float) == 4);
  CHECK(mo::dataTypeSize(mo::Int32) == 4);
  CHECK(mo::dataTypeSize(mo::UInt32) == 4);
  CHECK(mo::dataTypeSize(mo::Int64) == 8);
  CHECK(mo::dataTypeSize(mo::Double) == 8);
  CHECK(mo::dataTypeSize(mo::UInt64) == 8);
  CHECK(mo::dataTypeSize(mo::String) == 0);
  CHECK(mo::dataTypeSize(14) == 0);
  CHECK(mo::dataTypeSize(0) == 0);
}

TEST_CASE("Tensor::numElements", "[onnx][model]") {
  mo::Tensor t;
  CHECK(t.numElements() == 1); // a scalar
  t.dims = {2, 3, 4};
  CHECK(t.numElements() == 24);
  t.dims = {5, 0, 7};
  CHECK(t.numElements() == 0);
}

TEST_CASE("Node::findAttribute", "[onnx][model]") {
  mo::Node n;
  mo::Attribute a, b;
  a.name = "axis";
  a.kind = mo::Attribute::Int;
  a.i = 3;
  b.name = "mode";
  b.kind = mo::Attribute::String;
  b.s = "linear";
  n.attributes = {a, b};
  REQUIRE(n.findAttribute("axis") != nullptr);
  CHECK(n.findAttribute("axis")->i == 3);
  REQUIRE(n.findAttribute("mode") != nullptr);
  CHECK(n.findAttribute("mode")->s == "linear");
  CHECK(n.findAttribute("Axis") == nullptr);
  CHECK(n.findAttribute("") == nullptr);
  CHECK(mo::Node().findAttribute("axis") == nullptr);
}

//===----------------------------------------------------------------------===//
// loadModel: files that are not models
//===----------------------------------------------------------------------===//

TEST_CASE("loadModel refuses files that are not ONNX models",
          "[onnx][model]") {
  mo::Model m;
  std::string error;

  SECTION("missing file") {
    REQUIRE_FALSE(mo::loadModel(scratch("no-such-model.onnx"), m, error));
    CHECK(error == "cannot open file: No such file or directory");
  }
  SECTION("empty file") {
    REQUIRE_FALSE(mo::loadModel(writeBytes("empty.onnx", ""), m, error));
    CHECK(error == "empty file, not an ONNX model");
  }
  SECTION("garbage bytes") {
    // Field 1 as a length-delimited value 2^35 bytes long: unparseable.
    std::string garbage = "\x0a\xff\xff\xff\xff\x7f garbage";
    REQUIRE_FALSE(
        mo::loadModel(writeBytes("garbage.onnx", garbage), m, error));
    CHECK(error == "cannot parse the file as an ONNX ModelProto (truncated, "
                   "corrupt or not ONNX)");
  }
  SECTION("truncated model") {
    pb::ModelProto model = makeModel();
    *model.mutable_graph()->add_initializer() =
        floatTensor("w", {64}, ramp(64));
    std::string bytes = model.SerializeAsString();
    bytes.resize(bytes.size() / 2);
    REQUIRE_FALSE(mo::loadModel(writeBytes("truncated.onnx", bytes), m,
                                error));
    CHECK(error == "cannot parse the file as an ONNX ModelProto (truncated, "
                   "corrupt or not ONNX)");
  }
  SECTION("model without graph") {
    pb::ModelProto model = makeModel();
    model.clear_graph();
    REQUIRE_FALSE(mo::loadModel(writeModel("nograph.onnx", model), m, error));
    CHECK(error == "cannot parse the file as an ONNX model: it has no graph");
  }
}

TEST_CASE("loadModel reads the model header", "[onnx][model]") {
  pb::ModelProto model = makeModel(11, "my_graph");
  auto *ml = model.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(2);
  mo::Model m = loadOk("header.onnx", model);
  CHECK(m.path == scratch("header.onnx"));
  CHECK(m.irVersion == 8);
  CHECK(m.producer == "mlc-onnx-tests");
  CHECK(m.graphName == "my_graph");
  REQUIRE(m.opsets.size() == 2);
  CHECK(m.opsets.at("") == 11);
  CHECK(m.opsets.at("ai.onnx.ml") == 2);

  SECTION("the domain 'ai.onnx' is folded into ''") {
    pb::ModelProto named = makeModel();
    named.mutable_opset_import(0)->set_domain("ai.onnx");
    named.mutable_opset_import(0)->set_version(9);
    mo::Model n = loadOk("aionnx.onnx", named);
    REQUIRE(n.opsets.size() == 1);
    CHECK(n.opsets.count("") == 1);
    CHECK(n.opsets.at("") == 9);
  }
}

//===----------------------------------------------------------------------===//
// loadModel: initializers
//===----------------------------------------------------------------------===//

TEST_CASE("loadModel decodes FLOAT initializers", "[onnx][model][init]") {
  std::vector<float> v = {1.5f, -2.0f, 0.25f, 3e10f, -0.0f, 7.0f};
  SECTION("raw_data") {
    mo::Model m = loadOk("f32raw.onnx", modelWithInit(floatTensor(
                                            "w", {2, 3}, v)));
    mo::Tensor t = onlyInit(m);
    CHECK(t.name == "w");
    CHECK(t.dataType == mo::Float);
    CHECK(t.dims == std::vector<int64_t>{2, 3});
    CHECK(t.numElements() == 6);
    CHECK(t.data == bytesOf(v));
  }
  SECTION("float_data") {
    pb::TensorProto p = typedTensor("w", pb::TensorProto::FLOAT, {2, 3});
    for (float x : v)
      p.add_float_data(x);
    mo::Tensor t = onlyInit(loadOk("f32typed.onnx", modelWithInit(p)));
    CHECK(t.dataType == mo::Float);
    CHECK(t.dims == std::vector<int64_t>{2, 3});
    CHECK(t.data == bytesOf(v));
  }
}

TEST_CASE("loadModel reads a model the way protobuf merges fields",
          "[onnx][model][init]") {
  // The reader streams initializers' raw_data apart from the other fields;
  // fields that repeat must still merge as protobuf merges them.
  std::vector<float> a = {1, 2, 3}, b = {4, 5, 6}, c = {7, 8};
  pb::ModelProto first = makeModel();
  pb::TensorProto w = floatTensor("w", {3}, a);
  *first.mutable_graph()->add_initializer() = w;
  pb::ModelProto second;
  *second.mutable_graph()->add_initializer() = floatTensor("v", {2}, c);
  second.mutable_graph()->set_name("merged");
  std::string bytes = first.SerializeAsString() + second.SerializeAsString();
  // A third graph field whose tensor has raw_data twice: the last counts.
  auto lengthDelimited = [](int field, const std::string &body) {
    std::string out(1, char(field << 3 | 2));
    for (size_t n = body.size();; n >>= 7) {
      out += char((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      if (n < 0x80)
        break;
    }
    return out + body;
  };
  pb::TensorProto u = w, again;
  u.set_name("u");
  std::vector<char> bBytes = bytesOf(b);
  again.set_raw_data(bBytes.data(), bBytes.size());
  std::string graphField = lengthDelimited(
      7, lengthDelimited(5, u.SerializeAsString() + again.SerializeAsString()));
  bytes += graphField;
  pb::ModelProto reference;
  REQUIRE(reference.ParseFromString(bytes));
  REQUIRE(reference.graph().initializer_size() == 3);

  std::string path = writeModel("merged.onnx", first);
  {
    FILE *f = fopen(path.c_str(), "wb");
    REQUIRE(f);
    fwrite(bytes.data(), 1, bytes.size(), f);
    fclose(f);
  }
  mo::Model m;
  std::string error;
  INFO("error: " << error);
  REQUIRE(mo::loadModel(path, m, error));
  CHECK(m.graphName == "merged");
  REQUIRE(m.initializers.size() == 3);
  CHECK(m.initializers[0].name == "w");
  CHECK(m.initializers[0].data == bytesOf(a));
  CHECK(m.initializers[1].name == "v");
  CHECK(m.initializers[1].data == bytesOf(c));
  CHECK(m.initializers[2].name == "u");
  CHECK(m.initializers[2].data == bytesOf(b));
  CHECK(reference.graph().initializer(2).raw_data() ==
        std::string(bBytes.begin(), bBytes.end()));
}

TEST_CASE("loadModel decodes INT64 initializers", "[onnx][model][init]") {
  std::vector<int64_t> v = {0, -1, INT64_MAX, INT64_MIN, 42};
  SECTION("raw_data") {
    mo::Tensor t = onlyInit(loadOk(
        "i64raw.onnx", modelWithInit(int64Tensor("idx", {5}, v))));
    CHECK(t.dataType == mo::Int64);
    CHECK(t.dims == std::vector<int64_t>{5});
    CHECK(t.data == bytesOf(v));
  }
  SECTION("int64_data") {
    pb::TensorProto p = typedTensor("idx", pb::TensorProto::INT64, {5});
    for (int64_t x : v)
      p.add_int64_data(x);
    mo::Tensor t = onlyInit(loadOk("i64typed.onnx", modelWithInit(p)));
    CHECK(t.data == bytesOf(v));
  }
  SECTION("a scalar (no dims)") {
    mo::Tensor t = onlyInit(loadOk(
        "i64scalar.onnx",
        modelWithInit(int64Tensor("s", {}, std::vector<int64_t>{-7}))));
    CHECK(t.dims.empty());
    CHECK(t.numElements() == 1);
    CHECK(t.data == bytesOf(std::vector<int64_t>{-7}));
  }
}

TEST_CASE("loadModel decodes INT32 initializers", "[onnx][model][init]") {
  std::vector<int32_t> v = {1, -2, INT32_MAX, INT32_MIN};
  SECTION("raw_data") {
    mo::Tensor t = onlyInit(loadOk(
        "i32raw.onnx",
        modelWithInit(rawTensor("i", pb::TensorProto::INT32, {2, 2}, v))));
    CHECK(t.dataType == mo::Int32);
    CHECK(t.data == bytesOf(v));
  }
  SECTION("int32_data") {
    pb::TensorProto p = typedTensor("i", pb::TensorProto::INT32, {2, 2});
    for (int32_t x : v)
      p.add_int32_data(x);
    mo::Tensor t = onlyInit(loadOk("i32typed.onnx", modelWithInit(p)));
    CHECK(t.dataType == mo::Int32);
    CHECK(t.data == bytesOf(v));
  }
}

TEST_CASE("loadModel decodes BOOL initializers as 0/1 bytes",
          "[onnx][model][init]") {
  std::vector<char> expected = {0, 1, 1, 1, 0};
  SECTION("raw_data, non-zero bytes normalised") {
    std::vector<uint8_t> raw = {0, 1, 2, 255, 0};
    mo::Tensor t = onlyInit(loadOk(
        "boolraw.onnx",
        modelWithInit(rawTensor("b", pb::TensorProto::BOOL, {5}, raw))));
    CHECK(t.dataType == mo::Bool);
    CHECK(t.data == expected);
  }
  SECTION("int32_data, non-zero values normalised") {
    pb::TensorProto p = typedTensor("b", pb::TensorProto::BOOL, {5});
    for (int32_t x : {0, 1, 7, -1, 0})
      p.add_int32_data(x);
    mo::Tensor t = onlyInit(loadOk("booltyped.onnx", modelWithInit(p)));
    CHECK(t.dataType == mo::Bool);
    CHECK(t.data == expected);
  }
}

TEST_CASE("loadModel decodes DOUBLE initializers", "[onnx][model][init]") {
  std::vector<double> v = {3.141592653589793, -1e300, 0.5};
  SECTION("raw_data") {
    mo::Tensor t = onlyInit(loadOk(
        "f64raw.onnx",
        modelWithInit(rawTensor("d", pb::TensorProto::DOUBLE, {3}, v))));
    CHECK(t.dataType == mo::Double);
    CHECK(t.data == bytesOf(v));
  }
  SECTION("double_data") {
    pb::TensorProto p = typedTensor("d", pb::TensorProto::DOUBLE, {3});
    for (double x : v)
      p.add_double_data(x);
    mo::Tensor t = onlyInit(loadOk("f64typed.onnx", modelWithInit(p)));
    CHECK(t.data == bytesOf(v));
  }
}

TEST_CASE("loadModel decodes FLOAT16 initializers as bit patterns",
          "[onnx][model][init]") {
  // 1.0, -2.0, 65504 (max half), 0x0001 (smallest subnormal).
  std::vector<uint16_t> bits = {0x3C00, 0xC000, 0x7BFF, 0x0001};
  SECTION("raw_data") {
    mo::Tensor t = onlyInit(loadOk(
        "f16raw.onnx",
        modelWithInit(rawTensor("h", pb::TensorProto::FLOAT16, {4}, bits))));
    CHECK(t.dataType == mo::Float16);
    CHECK(t.data == bytesOf(bits));
  }
  SECTION("int32_data carries the 16-bit patterns") {
    pb::TensorProto p = typedTensor("h", pb::TensorProto::FLOAT16, {4});
    for (uint16_t x : bits)
      p.add_int32_data(x);
    mo::Tensor t = onlyInit(loadOk("f16typed.onnx", modelWithInit(p)));
    CHECK(t.data.size() == 8);
    CHECK(t.data == bytesOf(bits));
  }
}

TEST_CASE("loadModel decodes INT8 initializers", "[onnx][model][init]") {
  std::vector<int8_t> v = {-128, -1, 0, 127};
  SECTION("raw_data") {
    mo::Tensor t = onlyInit(loadOk(
        "i8raw.onnx",
        modelWithInit(rawTensor("q", pb::TensorProto::INT8, {4}, v))));
    CHECK(t.dataType == mo::Int8);
    CHECK(t.data == bytesOf(v));
  }
  SECTION("int32_data") {
    pb::TensorProto p = typedTensor("q", pb::TensorProto::INT8, {4});
    for (int8_t x : v)
      p.add_int32_data(x);
    mo::Tensor t = onlyInit(loadOk("i8typed.onnx", modelWithInit(p)));
    CHECK(t.data == bytesOf(v));
  }
}

TEST_CASE("loadModel decodes UINT32/UINT64 from uint64_data",
          "[onnx][model][init]") {
  pb::TensorProto p32 = typedTensor("u", pb::TensorProto::UINT32, {2});
  p32.add_uint64_data(1);
  p32.add_uint64_data(0xFFFFFFFFu);
  CHECK(onlyInit(loadOk("u32.onnx", modelWithInit(p32))).data ==
        bytesOf(std::vector<uint32_t>{1, 0xFFFFFFFFu}));
  pb::TensorProto p64 = typedTensor("u", pb::TensorProto::UINT64, {1});
  p64.add_uint64_data(UINT64_MAX);
  CHECK(onlyInit(loadOk("u64.onnx", modelWithInit(p64))).data ==
        bytesOf(std::vector<uint64_t>{UINT64_MAX}));
}

TEST_CASE("loadModel reports bad initializer data by name",
          "[onnx][model][init]") {
  SECTION("raw_data size mismatch") {
    pb::TensorProto p = floatTensor("conv1.weight", {2, 2}, {1, 2, 3});
    CHECK(loadError("rawsize.onnx", modelWithInit(p)) ==
          "initializer 'conv1.weight' has 12 bytes of raw data but its dims "
          "and type need 16");
  }
  SECTION("raw_data not a whole element") {
    pb::TensorProto p = typedTensor("b", pb::TensorProto::INT64, {1});
    p.set_raw_data(std::string(7, '\0'));
    CHECK(loadError("rawpartial.onnx", modelWithInit(p)) ==
          "initializer 'b' has 7 bytes of raw data but its dims and type "
          "need 8");
  }
  SECTION("typed field count mismatch") {
    pb::TensorProto p = typedTensor("fc.bias", pb::TensorProto::FLOAT, {4});
    p.add_float_data(1);
    p.add_float_data(2);
    p.add_float_data(3);
    CHECK(loadError("typedcount.onnx", modelWithInit(p)) ==
          "initializer 'fc.bias' has 3 elements but its dims need 4");
  }
  SECTION("int32_data count mismatch") {
    pb::TensorProto p = typedTensor("mask", pb::TensorProto::BOOL, {3});
    p.add_int32_data(1);
    CHECK(loadError("boolcount.onnx", modelWithInit(p)) ==
          "initializer 'mask' has 1 elements but its dims need 3");
  }
  SECTION("negative dimension") {
    pb::TensorProto p = floatTensor("neg", {2, -3}, {});
    CHECK(loadError("negdim.onnx", modelWithInit(p)) ==
          "initializer 'neg' has a negative dimension -3");
  }
  SECTION("too many elements") {
    pb::TensorProto p = floatTensor("huge", {1 << 30, 1 << 30, 4}, {});
    CHECK(loadError("huge.onnx", modelWithInit(p)) ==
          "initializer 'huge' has too many elements (more than 2^40)");
  }
  SECTION("unsupported element type") {
    pb::TensorProto p = typedTensor("c", pb::TensorProto::COMPLEX64, {1});
    p.set_raw_data(std::string(8, '\0'));
    CHECK(loadError("complex.onnx", modelWithInit(p)) ==
          "initializer 'c' has unsupported element type COMPLEX64");
  }
  SECTION("unnamed initializer") {
    CHECK(loadError("unnamed.onnx",
                    modelWithInit(floatTensor("", {1}, {1}))) ==
          "an initializer has no name");
  }
  SECTION("initializer defined twice") {
    pb::ModelProto m = modelWithInit(floatTensor("w", {1}, {1}));
    *m.mutable_graph()->add_initializer() = floatTensor("w", {1}, {2});
    CHECK(loadError("twice.onnx", m) == "initializer 'w' is defined twice");
  }
}

TEST_CASE("loadModel accepts empty tensors and string tensors",
          "[onnx][model][init]") {
  pb::ModelProto m = modelWithInit(floatTensor("empty", {0, 3}, {}));
  pb::TensorProto s = typedTensor("names", pb::TensorProto::STRING, {2});
  s.add_string_data("a");
  s.add_string_data("b");
  *m.mutable_graph()->add_initializer() = s;
  mo::Model model = loadOk("emptyandstring.onnx", m);
  REQUIRE(model.initializers.size() == 2);
  CHECK(model.initializers[0].numElements() == 0);
  CHECK(model.initializers[0].data.empty());
  CHECK(model.initializers[1].dataType == mo::String);
  CHECK(model.initializers[1].data.empty()); // strings keep no data
}

//===----------------------------------------------------------------------===//
// loadModel: external data
//===----------------------------------------------------------------------===//

TEST_CASE("loadModel reads external data next to the model",
          "[onnx][model][external]") {
  // 16 bytes of padding, then the two floats, then 8 bytes of padding.
  std::vector<float> v = {6.5f, -1.25f};
  std::string file = std::string(16, 'x') + rawBytes(v) + std::string(8, 'y');
  writeBytes("weights.bin", file);

  SECTION("with offset and length") {
    mo::Tensor t = onlyInit(loadOk(
        "ext.onnx", modelWithInit(externalTensor("weights.bin", "16", "8"))));
    CHECK(t.name == "ext");
    CHECK(t.dims == std::vector<int64_t>{2});
    CHECK(t.data == bytesOf(v));
  }
  SECTION("with offset only") {
    mo::Tensor t = onlyInit(loadOk(
        "ext2.onnx", modelWithInit(externalTensor("weights.bin", "16"))));
    CHECK(t.data == bytesOf(v));
  }
  SECTION("without offset the data starts at 0") {
    mo::Tensor t = onlyInit(loadOk(
        "ext3.onnx", modelWithInit(externalTensor("weights.bin"))));
    CHECK(t.data == std::vector<char>(8, 'x'));
  }
  SECTION("in a subdirectory of the model's directory") {
    fs::create_directories(scratchDir() / "data");
    writeBytes("data/w.bin", rawBytes(v));
    mo::Tensor t = onlyInit(loadOk(
        "ext4.onnx", modelWithInit(externalTensor("data/w.bin", "0", "8"))));
    CHECK(t.data == bytesOf(v));
  }
  SECTION("missing file") {
    CHECK(loadError("extmissing.onnx",
                    modelWithInit(externalTensor("missing.bin"))) ==
          "initializer 'ext' cannot open external data file 'missing.bin': "
          "No such file or directory");
  }
  SECTION("offset past the end") {
    CHECK(loadError("extpast.onnx",
                    modelWithInit(externalTensor("weights.bin", "30"))) ==
          "initializer 'ext' external data file 'weights.bin' has 32 bytes, "
          "but the tensor needs 8 bytes at offset 30");
  }
  SECTION("offset far past the end") {
    CHECK(loadError("extfar.onnx",
                    modelWithInit(externalTensor("weights.bin", "4096"))) ==
          "initializer 'ext' external data file 'weights.bin' has 32 bytes, "
          "but the tensor needs 8 bytes at offset 4096");
  }
  SECTION("length that does not match the tensor") {
    CHECK(loadError("extlen.onnx",
                    modelWithInit(externalTensor("weights.bin", "0", "12"))) ==
          "initializer 'ext' external data in 'weights.bin' has offset 0 and "
          "length 12, but the tensor needs 8 bytes");
  }
  SECTION("negative offset") {
    CHECK(loadError("extneg.onnx",
                    modelWithInit(externalTensor("weights.bin", "-4"))) ==
          "initializer 'ext' external data in 'weights.bin' has offset -4 and "
          "length -1, but the tensor needs 8 bytes");
  }
  SECTION("offset that is not a number") {
    CHECK(loadError("extnan.onnx",
                    modelWithInit(externalTensor("weights.bin", "abc"))) ==
          "initializer 'ext' external data entry 'offset' is not a number: "
          "'abc'");
  }
  SECTION("absolute path refused") {
    std::string abs = scratch("weights.bin"); // exists, still refused
    CHECK(loadError("extabs.onnx", modelWithInit(externalTensor(abs))) ==
          "initializer 'ext' external data location '" + abs +
              "' must be a relative path inside the model's directory");
  }
  SECTION("parent directory refused") {
    CHECK(loadError("extparent.onnx",
                    modelWithInit(externalTensor("../weights.bin"))) ==
          "initializer 'ext' external data location '../weights.bin' must be "
          "a relative path inside the model's directory");
  }
  SECTION("no location") {
    pb::TensorProto t = typedTensor("ext", pb::TensorProto::FLOAT, {2});
    t.set_data_location(pb::TensorProto::EXTERNAL);
    addExternal(t, "offset", "0");
    CHECK(loadError("extnoloc.onnx", modelWithInit(t)) ==
          "initializer 'ext' external data has no 'location'");
  }
}

TEST_CASE("loadModel names an external data offset that overflows",
          "[onnx][model][external]") {
  writeBytes("weights-overflow.bin", std::string(32, 'z'));
  // 2^63 - 4: offset + 8 bytes does not fit in int64_t.
  CHECK(loadError("extoverflow.onnx",
                  modelWithInit(externalTensor("weights-overflow.bin",
                                               "9223372036854775804"))) ==
        "initializer 'ext' external data file 'weights-overflow.bin' has 32 "
        "bytes, but the tensor needs 8 bytes at offset 9223372036854775804");
}

//===----------------------------------------------------------------------===//
// loadModel: inputs, outputs, nodes, attributes
//===----------------------------------------------------------------------===//

TEST_CASE("loadModel lists graph inputs that are not initializers",
          "[onnx][model][graph]") {
  pb::ModelProto model = makeModel();
  auto *g = model.mutable_graph();
  addInput(g, "x", pb::TensorProto::FLOAT, {-1, 3, 224, 224});
  addInput(g, "w", pb::TensorProto::FLOAT, {4}); // also an initializer
  addInput(g, "mask", pb::TensorProto::BOOL, {});
  setTensorType(g->add_input(), "noshape", pb::TensorProto::INT64, {},
                /*withShape=*/false);
  auto *seq = g->add_input();
  seq->set_name("seq");
  seq->mutable_type()->mutable_sequence_type();
  *g->add_initializer() = floatTensor("w", {4}, {1, 2, 3, 4});
  addOutput(g, "y", pb::TensorProto::FLOAT, {-1, 10});

  mo::Model m = loadOk("inputs.onnx", model);
  REQUIRE(m.inputs.size() == 4);
  CHECK(m.inputs[0].name == "x");
  CHECK(m.inputs[1].name == "mask");
  CHECK(m.inputs[2].name == "noshape");
  CHECK(m.inputs[3].name == "seq");
  for (const mo::ValueInfo &in : m.inputs)
    CHECK(in.name != "w");
  REQUIRE(m.initializers.size() == 1);
  CHECK(m.initializers[0].name == "w");

  const mo::ValueInfo &x = m.inputs[0];
  CHECK(x.isTensor);
  CHECK(x.dataType == mo::Float);
  CHECK(x.hasShape);
  REQUIRE(x.dims.size() == 4);
  CHECK(x.dims[0].value == -1);
  CHECK(x.dims[0].param == "N");
  CHECK(x.dims[1].value == 3);
  CHECK(x.dims[1].param.empty());
  CHECK(x.dims[3].value == 224);

  const mo::ValueInfo &mask = m.inputs[1];
  CHECK(mask.dataType == mo::Bool);
  CHECK(mask.hasShape); // a scalar has a shape with no dims
  CHECK(mask.dims.empty());

  const mo::ValueInfo &noshape = m.inputs[2];
  CHECK(noshape.isTensor);
  CHECK(noshape.dataType == mo::Int64);
  CHECK_FALSE(noshape.hasShape);

  CHECK_FALSE(m.inputs[3].isTensor);

  REQUIRE(m.outputs.size() == 1);
  CHECK(m.outputs[0].name == "y");
  REQUIRE(m.outputs[0].dims.size() == 2);
  CHECK(m.outputs[0].dims[0].value == -1);
  CHECK(m.outputs[0].dims[1].value == 10);
}

TEST_CASE("loadModel refuses a graph input declared twice",
          "[onnx][model][graph]") {
  pb::ModelProto model = makeModel();
  addInput(model.mutable_graph(), "x", pb::TensorProto::FLOAT, {1});
  addInput(model.mutable_graph(), "x", pb::TensorProto::FLOAT, {1});
  CHECK(loadError("inputtwice.onnx", model) ==
        "graph input 'x' is declared twice");
}

TEST_CASE("loadModel reads nodes in file order", "[onnx][model][graph]") {
  pb::ModelProto model = makeModel();
  auto *g = model.mutable_graph();
  addNode(g, "Conv", {"x", "w", ""}, {"c"}, "conv1");
  addNode(g, "Relu", {"c"}, {"r"});
  auto *custom = addNode(g, "Custom", {"r"}, {"y", ""});
  custom->set_domain("com.example");
  auto *relu2 = addNode(g, "Relu", {"y"}, {"z"});
  relu2->set_domain("ai.onnx");

  mo::Model m = loadOk("nodes.onnx", model);
  REQUIRE(m.nodes.size() == 4);
  CHECK(m.nodes[0].name == "conv1");
  CHECK(m.nodes[0].displayName == "conv1");
  CHECK(m.nodes[0].opType == "Conv");
  CHECK(m.nodes[0].domain.empty());
  CHECK(m.nodes[0].inputs == std::vector<std::string>{"x", "w", ""});
  CHECK(m.nodes[0].outputs == std::vector<std::string>{"c"});

  CHECK(m.nodes[1].name.empty());
  CHECK(m.nodes[1].displayName == "Relu_1");

  CHECK(m.nodes[2].displayName == "Custom_2");
  CHECK(m.nodes[2].domain == "com.example");
  CHECK(m.nodes[2].outputs == std::vector<std::string>{"y", ""});

  CHECK(m.nodes[3].displayName == "Relu_3");
  CHECK(m.nodes[3].domain.empty()); // "ai.onnx" folded into ""
}

TEST_CASE("loadModel reads attributes of each kind", "[onnx][model][attr]") {
  pb::ModelProto model = makeModel();
  auto *n = addNode(model.mutable_graph(), "Anything", {"x"}, {"y"});
  attrFloat(n, "alpha", 0.5f);
  attrInt(n, "axis", -2);
  auto *s = n->add_attribute();
  s->set_name("mode");
  s->set_type(pb::AttributeProto::STRING);
  s->set_s("nearest");
  auto *t = n->add_attribute();
  t->set_name("value");
  t->set_type(pb::AttributeProto::TENSOR);
  *t->mutable_t() = int64Tensor("", {3}, {4, 5, 6});
  auto *gr = n->add_attribute();
  gr->set_name("then_branch");
  gr->set_type(pb::AttributeProto::GRAPH);
  {
    // A branch reading the outer value "outer" and its own initializer.
    pb::GraphProto *g = gr->mutable_g();
    g->set_name("sub");
    *g->add_initializer() = int64Tensor("w", {1}, {7});
    pb::NodeProto *sn = g->add_node();
    sn->set_op_type("Add");
    sn->add_input("outer");
    sn->add_input("w");
    sn->add_output("sum");
    g->add_output()->set_name("sum");
  }
  auto *fs_ = n->add_attribute();
  fs_->set_name("scales");
  fs_->set_type(pb::AttributeProto::FLOATS);
  fs_->add_floats(1.0f);
  fs_->add_floats(2.5f);
  attrInts(n, "pads", {0, 1, 2, 3});
  auto *ss = n->add_attribute();
  ss->set_name("directions");
  ss->set_type(pb::AttributeProto::STRINGS);
  ss->add_strings("forward");
  ss->add_strings("reverse");
  auto *sp = n->add_attribute();
  sp->set_name("sparse");
  sp->set_type(pb::AttributeProto::SPARSE_TENSOR);

  mo::Model m = loadOk("attrs.onnx", model);
  REQUIRE(m.nodes.size() == 1);
  const mo::Node &node = m.nodes[0];
  REQUIRE(node.attributes.size() == 9);

  const mo::Attribute *a = node.findAttribute("alpha");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Float);
  CHECK(a->f == 0.5f);

  a = node.findAttribute("axis");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Int);
  CHECK(a->i == -2);

  a = node.findAttribute("mode");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::String);
  CHECK(a->s == "nearest");

  a = node.findAttribute("value");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Tensor);
  CHECK(a->t.dataType == mo::Int64);
  CHECK(a->t.dims == std::vector<int64_t>{3});
  CHECK(a->t.data == bytesOf(std::vector<int64_t>{4, 5, 6}));

  a = node.findAttribute("then_branch");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Graph);
  REQUIRE(a->g);
  CHECK(a->g->name == "sub");
  REQUIRE(a->g->initializers.size() == 1);
  CHECK(a->g->initializers[0].data == bytesOf(std::vector<int64_t>{7}));
  REQUIRE(a->g->nodes.size() == 1);
  CHECK(a->g->nodes[0].opType == "Add");
  REQUIRE(a->g->outputs.size() == 1);
  CHECK(a->g->outputs[0].name == "sum");
  std::vector<std::string> outer;
  mo::collectOuterNames(*a->g, outer);
  CHECK(outer == std::vector<std::string>{"outer"});

  a = node.findAttribute("scales");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Floats);
  CHECK(a->floats == std::vector<float>{1.0f, 2.5f});

  a = node.findAttribute("pads");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Ints);
  CHECK(a->ints == std::vector<int64_t>{0, 1, 2, 3});

  a = node.findAttribute("directions");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Strings);
  CHECK(a->strings == std::vector<std::string>{"forward", "reverse"});

  a = node.findAttribute("sparse");
  REQUIRE(a);
  CHECK(a->kind == mo::Attribute::Other);

  CHECK(node.findAttribute("missing") == nullptr);
}

TEST_CASE("loadModel reports a bad tensor attribute with its node",
          "[onnx][model][attr]") {
  pb::ModelProto model = makeModel();
  auto *n = addNode(model.mutable_graph(), "Constant", {}, {"c"});
  auto *t = n->add_attribute();
  t->set_name("value");
  t->set_type(pb::AttributeProto::TENSOR);
  *t->mutable_t() = floatTensor("", {2}, {1, 2, 3});
  CHECK(loadError("badattr.onnx", model) ==
        "attribute 'value' of node 'Constant_0': tensor has 12 bytes of raw "
        "data but its dims and type need 8");
}

TEST_CASE("loadModel names a bad tensor inside a subgraph",
          "[onnx][model][attr]") {
  pb::ModelProto model = makeModel();
  auto *n = addNode(model.mutable_graph(), "If", {"c"}, {"y"});
  auto *a = n->add_attribute();
  a->set_name("then_branch");
  a->set_type(pb::AttributeProto::GRAPH);
  *a->mutable_g()->add_initializer() = floatTensor("w", {2}, {1, 2, 3});
  CHECK(loadError("badsub.onnx", model) ==
        "attribute 'then_branch' of node 'If_0': initializer 'w' has 12 bytes "
        "of raw data but its dims and type need 8");
}

TEST_CASE("loadModel refuses subgraphs nested too deep",
          "[onnx][model][attr]") {
  pb::ModelProto model = makeModel();
  pb::GraphProto *g = model.mutable_graph();
  for (int i = 0; i < 20; ++i) {
    auto *n = addNode(g, "If", {"c"}, {"y"});
    auto *a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(pb::AttributeProto::GRAPH);
    g = a->mutable_g();
  }
  CHECK_THAT(loadError("deep.onnx", model),
             Catch::Contains("subgraphs are nested more than 16 levels deep"));
}

//===----------------------------------------------------------------------===//
// loadTensorFile
//===----------------------------------------------------------------------===//

TEST_CASE("loadTensorFile reads a serialized TensorProto",
          "[onnx][tensorfile]") {
  mo::Tensor t;
  std::string error;
  SECTION("raw_data") {
    std::string path =
        writeTensor("input_0.pb", floatTensor("x", {1, 2}, {0.5f, -3.0f}));
    REQUIRE(mo::loadTensorFile(path, t, error));
    CHECK(error.empty());
    CHECK(t.name == "x");
    CHECK(t.dataType == mo::Float);
    CHECK(t.dims == std::vector<int64_t>{1, 2});
    CHECK(t.data == bytesOf(std::vector<float>{0.5f, -3.0f}));
  }
  SECTION("typed field") {
    pb::TensorProto p = typedTensor("shape", pb::TensorProto::INT64, {2});
    p.add_int64_data(6);
    p.add_int64_data(4);
    REQUIRE(mo::loadTensorFile(writeTensor("shape.pb", p), t, error));
    CHECK(t.dataType == mo::Int64);
    CHECK(t.data == bytesOf(std::vector<int64_t>{6, 4}));
  }
  SECTION("missing file") {
    REQUIRE_FALSE(mo::loadTensorFile(scratch("nope.pb"), t, error));
    CHECK(error == "cannot open file: No such file or directory");
  }
  SECTION("garbage bytes") {
    REQUIRE_FALSE(mo::loadTensorFile(
        writeBytes("garbage.pb", "\x0a\xff\xff\xff\xff\x7f!"), t, error));
    CHECK(error == "cannot parse the file as an ONNX TensorProto");
  }
  SECTION("bad element count") {
    pb::TensorProto p = typedTensor("x", pb::TensorProto::INT32, {3});
    p.add_int32_data(1);
    REQUIRE_FALSE(mo::loadTensorFile(writeTensor("short.pb", p), t, error));
    CHECK(error == "the tensor has 1 elements but its dims need 3");
  }
  SECTION("external data") {
    REQUIRE_FALSE(mo::loadTensorFile(
        writeTensor("external.pb", externalTensor("weights.bin")), t, error));
    CHECK(error == "tensor files with external data are not supported");
  }
}
