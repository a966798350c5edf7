//===- ModelSpecTraining.cpp - model.json's training section --------------===//
//
// docs/training.md: batch size, loss, optimizer, initialization and the
// trainable weights, checked against the graph once it is parsed.
//
//===----------------------------------------------------------------------===//

#include "ModelSpecParser.h"

#include <sstream>
#include <unordered_map>

namespace mlc::frontend::detail {

namespace {
double expectNumber(const Json &v, const std::string &path) {
  if (!v.is_number())
    fail(path, "expected a number");
  return v.get<double>();
}

/// An optional number in [lo, hi), or [lo, hi] when `closed`.
double numberIn(const Json &obj, const std::string &path, const char *key,
                double dflt, double lo, double hi, bool required = false,
                bool closed = false) {
  const Json *v = required ? &require(obj, path, key) : optional(obj, key);
  if (!v)
    return dflt;
  std::string p = member(path, key);
  double d = expectNumber(*v, p);
  if (!(d >= lo && (closed ? d <= hi : d < hi))) {
    std::ostringstream os;
    os << key << " must be in [" << lo << ", " << hi << (closed ? "]" : ")")
       << ", got " << d;
    fail(p, os.str());
  }
  return d;
}
} // namespace

void Parser::parseTraining(const Json &v, const std::string &path) {
  TrainingSpec &t = spec.training;
  t.present = true;
  expectObject(v, path);
  checkKeys(v, path,
            {"batch_size", "loss", "optimizer", "init", "trainable",
             "batch_norm_momentum"});
  t.batchSize =
      expectInt(require(v, path, "batch_size"), member(path, "batch_size"));
  if (t.batchSize < 1 || t.batchSize >= kMaxDim)
    fail(member(path, "batch_size"), "batch_size must be in [1, 2^31)");

  std::string lossPath = member(path, "loss");
  const Json &loss = expectObject(require(v, path, "loss"), lossPath);
  const std::string &type =
      expectString(require(loss, lossPath, "type"), member(lossPath, "type"));
  const char *labelsKey;
  if (type == "softmax_cross_entropy") {
    t.loss = TrainingSpec::Loss::SoftmaxCrossEntropy;
    labelsKey = "labels";
  } else if (type == "mse") {
    t.loss = TrainingSpec::Loss::MSE;
    labelsKey = "target";
  } else {
    fail(member(lossPath, "type"), "unknown loss " + quote(type) +
                                       " (expected softmax_cross_entropy or "
                                       "mse)");
  }
  checkKeys(loss, lossPath, {"type", "output", labelsKey});
  parseName(require(loss, lossPath, "output"), member(lossPath, "output"),
            t.lossOutput);
  parseName(require(loss, lossPath, labelsKey), member(lossPath, labelsKey),
            t.labels);

  std::string optPath = member(path, "optimizer");
  const Json &opt = expectObject(require(v, path, "optimizer"), optPath);
  const std::string &optType =
      expectString(require(opt, optPath, "type"), member(optPath, "type"));
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (optType == "sgd") {
    t.optimizer = TrainingSpec::Optimizer::SGD;
    checkKeys(opt, optPath,
              {"type", "lr", "momentum", "weight_decay", "nesterov"});
    t.momentum = numberIn(opt, optPath, "momentum", 0, 0, 1);
    if (const Json *n = optional(opt, "nesterov")) {
      if (!n->is_boolean())
        fail(member(optPath, "nesterov"), "expected true or false");
      t.nesterov = n->get<bool>();
      if (t.nesterov && t.momentum == 0)
        fail(member(optPath, "nesterov"), "nesterov needs a momentum > 0");
    }
  } else if (optType == "adam") {
    t.optimizer = TrainingSpec::Optimizer::Adam;
    checkKeys(opt, optPath,
              {"type", "lr", "beta1", "beta2", "epsilon", "weight_decay"});
    t.beta1 = numberIn(opt, optPath, "beta1", 0.9, 0, 1);
    t.beta2 = numberIn(opt, optPath, "beta2", 0.999, 0, 1);
    t.epsilon = numberIn(opt, optPath, "epsilon", 1e-8, 1e-30, inf);
  } else {
    fail(member(optPath, "type"),
         "unknown optimizer " + quote(optType) + " (expected sgd or adam)");
  }
  t.lr = numberIn(opt, optPath, "lr", 0, 1e-30, inf, /*required=*/true);
  t.weightDecay = numberIn(opt, optPath, "weight_decay", 0, 0, inf);

  if (const Json *init = optional(v, "init")) {
    std::string initPath = member(path, "init");
    expectObject(*init, initPath);
    checkKeys(*init, initPath, {"method", "seed"});
    const std::string &method = expectString(require(*init, initPath, "method"),
                                             member(initPath, "method"));
    if (method == "random")
      t.randomInit = true;
    else if (method != "weights")
      fail(member(initPath, "method"), "unknown init method " + quote(method) +
                                           " (expected weights or random)");
    if (const Json *seed = optional(*init, "seed")) {
      if (!t.randomInit)
        fail(member(initPath, "seed"), "seed applies to method random only");
      int64_t s = expectInt(*seed, member(initPath, "seed"));
      if (s < 0)
        fail(member(initPath, "seed"), "seed must not be negative");
      t.seed = uint64_t(s);
    }
  }

  if (const Json *trainable = optional(v, "trainable")) {
    std::string tp = member(path, "trainable");
    expectList(*trainable, tp);
    if (trainable->empty())
      fail(tp, "expected at least one weight name");
    t.trainable.resize(trainable->size());
    for (size_t i = 0; i < trainable->size(); ++i)
      parseName((*trainable)[i], element(tp, i), t.trainable[i]);
  }
  t.batchNormMomentum =
      numberIn(v, path, "batch_norm_momentum", 0.1, 0, 1, /*required=*/false,
               /*closed=*/true);
}

/// Names in the training section against the graph (after all are defined).
void Parser::checkTraining() {
  const TrainingSpec &t = spec.training;
  if (!defs.count(t.lossOutput))
    fail("training.loss.output", "unknown value " + quote(t.lossOutput));
  if (std::none_of(spec.outputs.begin(), spec.outputs.end(),
                   [&](const OutputDecl &o) { return o.name == t.lossOutput; }))
    fail("training.loss.output",
         quote(t.lossOutput) + " is not one of the model's outputs");
  const char *labelsKey =
      t.loss == TrainingSpec::Loss::MSE ? "target" : "labels";
  if (defs.count(t.labels))
    fail(std::string("training.loss.") + labelsKey,
         quote(t.labels) + " is already a value of the model; the labels "
                           "input needs a new name");
  std::unordered_map<std::string, size_t> seen;
  for (size_t i = 0; i < t.trainable.size(); ++i) {
    std::string path = element("training.trainable", i);
    auto it = defs.find(t.trainable[i]);
    if (it == defs.end() || it->second.kind != Definition::Weight)
      fail(path, quote(t.trainable[i]) + " is not a weight of the model");
    if (spec.weights[it->second.index].dtype != DType::F32)
      fail(path, "weight " + quote(t.trainable[i]) +
                     " is not f32; only f32 weights can be trained");
    if (!seen.emplace(t.trainable[i], i).second)
      fail(path, quote(t.trainable[i]) + " is listed twice");
  }
}

} // namespace mlc::frontend::detail
