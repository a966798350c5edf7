//===- ModelSpec.h - Parsed, validated model.json ---------------*- C++ -*-===//
//
// The JSON frontend works in two steps: parseModelJSON reads model.json (and
// its safetensors weights) into a ModelSpec, checking everything that does not
// need shapes of intermediate values (structure, names, arity, attribute names
// and types, weights, cycles). importModel (ImportModel.h) then builds graph
// dialect IR from it, where each op's shape inference reports the rest.
// This file has no MLIR dependency so it can be unit tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_FRONTEND_JSON_MODELSPEC_H
#define MLC_FRONTEND_JSON_MODELSPEC_H

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace mlc::frontend {

enum class DType { F32, I64, I32, Bool };

/// "f32", "i64", "i32", "bool".
const char *dtypeName(DType t);
/// Bytes per element in weight storage (bool: 1).
size_t dtypeSize(DType t);

/// A located problem: `path` is the JSON path ("nodes[3].inputs[1]") or
/// empty for whole-file problems.
struct Diagnostic {
  std::string path;
  std::string message;
};

struct TensorDecl {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::string path; ///< JSON path of the declaration, e.g. "inputs[0]".
  int64_t numElements() const;
};

struct WeightDecl : TensorDecl {
  /// Raw little-endian element bytes, numElements()*dtypeSize(dtype) long
  /// (bool: one byte 0/1 per element).
  std::vector<char> data;
};

/// Attribute values after validation. Lists of integers are IntList, lists
/// of floats are not used by any op yet.
using IntList = std::vector<int64_t>;
using AttrValue = std::variant<int64_t, double, bool, std::string, IntList>;

struct NodeDecl {
  std::string op;   ///< e.g. "conv2d" (graph dialect op name without prefix)
  std::string name; ///< optional user name ("" if absent)
  std::vector<std::string> inputs;
  std::string output; ///< every op has exactly one output
  /// Only the attributes present in the JSON (defaults are the importer's
  /// business), each already checked to be allowed for `op` and of the
  /// right kind: ints (int64_t), floats (double; JSON ints accepted),
  /// bools, strings (checked against the allowed set when there is one),
  /// int lists.
  std::map<std::string, AttrValue> attrs;
  std::string path; ///< "nodes[3]"
};

struct OutputDecl {
  std::string name;
  std::string path; ///< "outputs[0]"
};

/// The optional `training` section (docs/training.md). Present only when
/// `present`; every field is validated against the graph's names.
struct TrainingSpec {
  bool present = false;
  int64_t batchSize = 0;
  enum class Loss { SoftmaxCrossEntropy, MSE } loss = Loss::SoftmaxCrossEntropy;
  std::string lossOutput; ///< the model value the loss reads
  std::string labels;     ///< name of the new labels/target input
  enum class Optimizer { SGD, Adam } optimizer = Optimizer::SGD;
  double lr = 0, momentum = 0, weightDecay = 0;
  bool nesterov = false;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  bool randomInit = false;
  uint64_t seed = 0;
  /// Trained weights; empty = every f32 weight that is not a batch_norm
  /// mean or variance.
  std::vector<std::string> trainable;
  double batchNormMomentum = 0.1;
};

struct ModelSpec {
  std::string name;
  std::string sourcePath; ///< the JSON file as given
  std::vector<TensorDecl> inputs;
  std::vector<WeightDecl> weights;
  std::vector<NodeDecl> nodes; ///< topologically sorted (stable)
  std::vector<OutputDecl> outputs;
  TrainingSpec training;
};

/// Parses and validates `path`. On failure returns false and fills `diag`.
bool parseModelJSON(const std::string &path, ModelSpec &spec, Diagnostic &diag);
/// Same, from text in memory; `sourcePath` is used for messages and to
/// resolve `weights_file` relative to its directory.
bool parseModelJSONText(const std::string &text, const std::string &sourcePath,
                        ModelSpec &spec, Diagnostic &diag);

/// Static description of a graph op as the JSON format knows it.
struct OpSchema {
  const char *name;
  int minInputs, maxInputs; ///< maxInputs -1 = unbounded
};
/// Null if `op` is not a known op.
const OpSchema *lookupOpSchema(const std::string &op);
/// All known ops (for docs and --help).
std::vector<std::string> knownOps();

} // namespace mlc::frontend

#endif // MLC_FRONTEND_JSON_MODELSPEC_H
