//===- ImportTraining.cpp - model.json training section -> train step -----===//
//
// A trainable model is three graph functions over the same variables:
//   @init()                                   -> variables
//   @main(params, buffers, inputs)            -> outputs        (inference)
//   @train_step(variables, batch, labels)     -> loss, updated variables
// Parameters are function arguments, not constants, so the runtime owns them
// (model_abi.h). The train step is the forward graph at the training batch
// size, a loss op, the reverse pass built by graph::differentiate, and one
// optimizer op per parameter; batch_norm switches to batch statistics and
// its running averages become buffer updates.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/GraphBuilders.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Frontend/Common/WeightAttr.h"
#include "mlc/Frontend/JSON/ImportModel.h"
#include "mlc/Transforms/Autodiff.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <cstring>
#include <numeric>

using namespace mlir;
using mlc::graph::GraphBuilder;
using mlc::graph::splatConstant;

namespace mlc::frontend {
namespace {

enum class VarKind { Param, Buffer, State };

const char *kindName(VarKind k) {
  return k == VarKind::Param    ? "param"
         : k == VarKind::Buffer ? "buffer"
                                : "state";
}

/// Deterministic, platform-independent numbers for seeded initialization
/// (splitmix64). Not PyTorch's stream: only the distribution matches.
class SplitMix {
public:
  explicit SplitMix(uint64_t seed) : state(seed) {}
  /// Uniform in [0, 1) with 53 random bits.
  double next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return double(z >> 11) * 0x1.0p-53;
  }

private:
  uint64_t state;
};

/// How a weight is used by the graph, which decides its random init.
struct WeightUse {
  bool batchNormStat = false; ///< mean/variance operand of batch_norm
  bool batchNormVariance = false;
  bool normScale = false; ///< scale of batch_norm/layer_norm
  bool matmulRhs = false;
  bool convFilter = false;
};

class TrainingImporter {
public:
  TrainingImporter(MLIRContext *ctx, const ModelSpec &spec)
      : ctx(ctx), spec(spec), t(spec.training) {}

  OwningOpRef<ModuleOp> run();

private:
  InFlightDiagnostic error(StringRef path) {
    return emitError(jsonLocation(ctx, spec.sourcePath, path));
  }
  LogicalResult classifyWeights();
  LogicalResult buildTrainStep(func::FuncOp func);
  func::FuncOp buildInit(OpBuilder &b);
  std::vector<char> initialValue(const WeightDecl &w);

  MLIRContext *ctx;
  const ModelSpec &spec;
  const TrainingSpec &t;
  llvm::StringMap<WeightUse> uses;
  /// Variables in ABI order: params, buffers, then optimizer state.
  struct Variable {
    std::string name;
    VarKind kind;
    RankedTensorType type;
    const WeightDecl *weight = nullptr; ///< null for optimizer state
  };
  std::vector<Variable> vars;
  std::vector<std::string> weightArgs; ///< params then buffers
};

LogicalResult TrainingImporter::classifyWeights() {
  for (const NodeDecl &node : spec.nodes)
    for (auto [i, name] : llvm::enumerate(node.inputs)) {
      WeightUse &u = uses[name];
      if (node.op == "batch_norm" && (i == 3 || i == 4)) {
        u.batchNormStat = true;
        u.batchNormVariance |= i == 4;
      }
      if ((node.op == "batch_norm" || node.op == "layer_norm") && i == 1)
        u.normScale = true;
      u.matmulRhs |= node.op == "matmul" && i == 1;
      // conv1d..3d and conv_transpose1d..3d: every dim but the first is
      // read per output, as torch's fan-in counts.
      u.convFilter |= StringRef(node.op).starts_with("conv") && i == 1;
    }
  llvm::StringMap<const WeightDecl *> byName;
  for (const WeightDecl &w : spec.weights)
    byName[w.name] = &w;

  Type f32 = Float32Type::get(ctx);
  auto typeOf = [&](const WeightDecl &w) {
    return RankedTensorType::get(w.shape, f32);
  };
  if (!t.trainable.empty()) {
    for (auto [i, name] : llvm::enumerate(t.trainable)) {
      const WeightDecl *w = byName.lookup(name);
      if (uses.lookup(name).batchNormStat) {
        error("training.trainable[" + std::to_string(i) + "]")
            << "'" << name
            << "' is a batch_norm mean or variance: it is updated as a "
               "running average, not trained";
        return failure();
      }
      vars.push_back({name, VarKind::Param, typeOf(*w), w});
    }
  } else {
    for (const WeightDecl &w : spec.weights)
      if (w.dtype == DType::F32 && !uses.lookup(w.name).batchNormStat)
        vars.push_back({w.name, VarKind::Param, typeOf(w), &w});
  }
  if (vars.empty()) {
    error("training") << "the model has no f32 weight to train";
    return failure();
  }
  for (const WeightDecl &w : spec.weights)
    if (uses.lookup(w.name).batchNormStat) {
      if (w.dtype != DType::F32) {
        error(w.path) << "batch_norm statistics must be f32";
        return failure();
      }
      vars.push_back({w.name, VarKind::Buffer, typeOf(w), &w});
    }
  for (const Variable &v : vars)
    weightArgs.push_back(v.name);
  return success();
}

std::vector<char> TrainingImporter::initialValue(const WeightDecl &w) {
  if (!t.randomInit)
    return w.data;
  WeightUse u = uses.lookup(w.name);
  int64_t n = w.numElements();
  std::vector<float> values(n, 0.0f);
  if (u.batchNormVariance || u.normScale) {
    std::fill(values.begin(), values.end(), 1.0f);
  } else if (u.batchNormStat) {
    // Running mean starts at 0.
  } else if (w.shape.size() >= 2) {
    // U(+-1/sqrt(fan_in)) as torch.nn.Linear / Conv2d: a conv2d filter
    // [O, C/g, KH, KW] reads C/g*KH*KW inputs per output (torch counts a
    // transposed convolution's [C, O/g, K...] the same way), a matrix
    // [.., K, N] reads K.
    int64_t fanIn = w.shape[w.shape.size() - 2];
    if (u.convFilter)
      fanIn = std::accumulate(w.shape.begin() + 1, w.shape.end(), int64_t(1),
                              std::multiplies<int64_t>());
    double bound = 1.0 / std::sqrt(double(fanIn));
    // One stream per weight, so adding a weight does not reshuffle others.
    uint64_t h = t.seed;
    for (char c : w.name)
      h = (h ^ uint64_t(uint8_t(c))) * 0x100000001b3ull;
    SplitMix rng(h);
    for (float &v : values)
      v = float((2 * rng.next() - 1) * bound);
  }
  std::vector<char> bytes(n * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

func::FuncOp TrainingImporter::buildInit(OpBuilder &b) {
  Location loc = jsonLocation(ctx, spec.sourcePath, "training.init");
  SmallVector<Type> types;
  for (const Variable &v : vars)
    types.push_back(v.type);
  auto func =
      func::FuncOp::create(b, loc, "init", b.getFunctionType({}, types));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(func.addEntryBlock());
  SmallVector<Value> values;
  for (const Variable &v : vars) {
    if (v.weight) {
      std::vector<char> bytes = initialValue(*v.weight);
      values.push_back(graph::ConstantOp::create(
          b, loc, makeWeightAttr(v.type, bytes, v.name)));
    } else {
      values.push_back(splatConstant(b, loc, v.type.getElementType(),
                                     v.type.getShape(), 0.0));
    }
  }
  func::ReturnOp::create(b, loc, values);
  for (auto [i, v] : llvm::enumerate(vars)) {
    func.setResultAttr(i, "mlc.name", b.getStringAttr(v.name));
    func.setResultAttr(i, "mlc.kind", b.getStringAttr("update"));
  }
  return func;
}

LogicalResult TrainingImporter::buildTrainStep(func::FuncOp func) {
  func.setSymName("train_step");
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  size_t numWeightArgs = weightArgs.size();
  Location lossLoc = jsonLocation(ctx, spec.sourcePath, "training.loss");
  Location optLoc = jsonLocation(ctx, spec.sourcePath, "training.optimizer");
  OpBuilder b(ctx);
  b.setInsertionPoint(ret);
  ImplicitLocOpBuilder ib(lossLoc, b);
  Type f32 = b.getF32Type();

  // Batch statistics instead of running ones; remember the running updates.
  llvm::DenseMap<Value, Value> bufferUpdates; // buffer arg -> new value
  SmallVector<graph::BatchNormOp> norms;
  func.walk([&](graph::BatchNormOp op) { norms.push_back(op); });
  for (graph::BatchNormOp op : norms) {
    auto mean = dyn_cast<BlockArgument>(op.getMean());
    auto variance = dyn_cast<BlockArgument>(op.getVariance());
    if (!mean || !variance || mean.getArgNumber() >= numWeightArgs ||
        variance.getArgNumber() >= numWeightArgs) {
      op.emitError("batch_norm mean and variance must be weights to train "
                   "the model");
      return failure();
    }
    if (bufferUpdates.count(mean) || bufferUpdates.count(variance)) {
      op.emitError("batch_norm statistics shared by two batch_norm nodes "
                   "cannot be trained");
      return failure();
    }
    OpBuilder nb(op);
    auto train = graph::BatchNormTrainOp::create(nb, op.getLoc(), op.getInput(),
                                                 op.getScale(), op.getBias(),
                                                 op.getEpsilon());
    op.getResult().replaceAllUsesWith(train.getResult());
    op.erase();
    // Running averages as torch: the variance average is unbiased.
    auto inType = cast<RankedTensorType>(train.getInput().getType());
    int64_t count = inType.getNumElements() / inType.getDimSize(1);
    double m = t.batchNormMomentum;
    double unbias = count > 1 ? double(count) / double(count - 1) : 1.0;
    GraphBuilder ub(b, train.getLoc());
    auto runningUpdate = [&](Value running, Value batch, double factor) {
      Value fromBatch = ub.scale(batch, m * factor);
      Value kept = ub.scale(running, 1 - m);
      return ub.add(kept, fromBatch);
    };
    bufferUpdates[mean] = runningUpdate(mean, train.getMean(), 1.0);
    bufferUpdates[variance] =
        runningUpdate(variance, train.getVariance(), unbias);
  }

  // The loss on the model output it names (ModelSpec checked that it is
  // one), with a new labels argument.
  auto outIt = llvm::find_if(spec.outputs, [&](const OutputDecl &o) {
    return o.name == t.lossOutput;
  });
  assert(outIt != spec.outputs.end() && "loss output is not a model output");
  Value prediction = ret.getOperand(outIt - spec.outputs.begin());
  auto predType = cast<RankedTensorType>(prediction.getType());
  if (!isa<FloatType>(predType.getElementType())) {
    error("training.loss.output")
        << "the loss needs a float output, got " << predType;
    return failure();
  }
  bool sce = t.loss == TrainingSpec::Loss::SoftmaxCrossEntropy;
  if (sce && predType.getRank() != 2) {
    error("training.loss.output")
        << "softmax_cross_entropy needs logits of rank 2 [batch, classes], "
           "got "
        << predType;
    return failure();
  }
  RankedTensorType labelsType =
      sce ? RankedTensorType::get({predType.getDimSize(0)}, b.getI64Type())
          : predType;
  if (failed(
          func.insertArgument(func.getNumArguments(), labelsType, {}, lossLoc)))
    return failure();
  BlockArgument labels = func.getArgument(func.getNumArguments() - 1);
  Value loss =
      sce ? Value(graph::SoftmaxCrossEntropyOp::create(ib, prediction, labels))
          : Value(graph::MSELossOp::create(ib, prediction, labels));

  // Reverse pass, seeded with dloss = 1.
  SmallVector<Value> params, grads;
  for (auto [i, v] : llvm::enumerate(vars))
    if (v.kind == VarKind::Param)
      params.push_back(body.getArgument(i));
  graph::GradientSeed seed{loss, splatConstant(b, lossLoc, f32, {}, 1.0)};
  if (failed(graph::differentiate(b, body, params, seed, grads)))
    return failure();

  // Optimizer state arguments go after the buffers.
  ib.setLoc(optLoc);
  bool adam = t.optimizer == TrainingSpec::Optimizer::Adam;
  bool momentum = !adam && t.momentum != 0;
  unsigned stateIndex = numWeightArgs;
  auto addState = [&](const std::string &name, RankedTensorType type) {
    (void)func.insertArgument(stateIndex, type, {}, optLoc);
    vars.push_back({name, VarKind::State, type, nullptr});
    return func.getArgument(stateIndex++);
  };
  Value step, newStep;
  if (adam) {
    auto scalarType = RankedTensorType::get({}, f32);
    step = addState("adam.step", scalarType);
    GraphBuilder sb(b, optLoc);
    newStep = sb.add(step, sb.scalar(step, 1.0));
  }
  SmallVector<Value> newParams, newState;
  for (auto [i, param] : llvm::enumerate(params)) {
    auto type = cast<RankedTensorType>(param.getType());
    const std::string &name = vars[i].name;
    if (adam) {
      Value m = addState(name + ".adam_m", type);
      Value v = addState(name + ".adam_v", type);
      auto update = graph::AdamUpdateOp::create(
          ib, param, grads[i], m, v, newStep, b.getF64FloatAttr(t.lr),
          b.getF64FloatAttr(t.beta1), b.getF64FloatAttr(t.beta2),
          b.getF64FloatAttr(t.epsilon), b.getF64FloatAttr(t.weightDecay));
      newParams.push_back(update.getNewParam());
      newState.append({update.getNewM(), update.getNewV()});
    } else {
      Value velocity = momentum ? addState(name + ".velocity", type) : Value();
      auto update = graph::SGDUpdateOp::create(
          ib, param, grads[i], velocity, b.getF64FloatAttr(t.lr),
          b.getF64FloatAttr(t.momentum), b.getF64FloatAttr(t.weightDecay),
          b.getBoolAttr(t.nesterov));
      newParams.push_back(update.getResults()[0]);
      if (momentum)
        newState.push_back(update.getResults()[1]);
    }
  }
  if (adam)
    newState.insert(newState.begin(), newStep);

  // loss, then one update per variable in variable order.
  SmallVector<Value> results{loss};
  results.append(newParams);
  for (auto [i, v] : llvm::enumerate(vars))
    if (v.kind == VarKind::Buffer) {
      Value arg = func.getArgument(i);
      Value updated = bufferUpdates.lookup(arg);
      results.push_back(updated ? updated : arg);
    }
  results.append(newState);
  func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  func.setFunctionType(FunctionType::get(ctx, body.getArgumentTypes(),
                                         ValueRange(results).getTypes()));
  // The results are new: drop the forward outputs' attributes.
  func.removeResAttrsAttr();

  // Names and kinds for the ABI.
  size_t numVars = vars.size();
  for (auto [i, v] : llvm::enumerate(vars)) {
    func.setArgAttr(i, "mlc.name", b.getStringAttr(v.name));
    func.setArgAttr(i, "mlc.kind", b.getStringAttr(kindName(v.kind)));
    func.setResultAttr(i + 1, "mlc.name", b.getStringAttr(v.name));
    func.setResultAttr(i + 1, "mlc.kind", b.getStringAttr("update"));
  }
  func.setArgAttr(func.getNumArguments() - 1, "mlc.name",
                  b.getStringAttr(t.labels));
  for (unsigned i = numVars; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, "mlc.kind", b.getStringAttr("in"));
  func.setResultAttr(0, "mlc.name", b.getStringAttr("loss"));
  func.setResultAttr(0, "mlc.kind", b.getStringAttr("out"));
  return success();
}

OwningOpRef<ModuleOp> TrainingImporter::run() {
  if (failed(classifyWeights()))
    return nullptr;
  for (const Variable &v : vars)
    if (!t.randomInit && v.weight->data.empty()) {
      error(v.weight->path) << "weight '" << v.name << "' has no data";
      return nullptr;
    }

  // Inference on the variables, at the model's own input shapes.
  OwningOpRef<ModuleOp> module = importModel(ctx, spec, weightArgs);
  if (!module)
    return nullptr;
  auto inference = module->lookupSymbol<func::FuncOp>("main");
  OpBuilder b(ctx);
  for (auto [i, v] : llvm::enumerate(vars))
    inference.setArgAttr(i, "mlc.kind", b.getStringAttr(kindName(v.kind)));

  // The train step at the training batch size.
  ModelSpec batched = spec;
  for (TensorDecl &in : batched.inputs) {
    if (in.shape.empty()) {
      error(in.path) << "input '" << in.name
                     << "' is a scalar: training needs a batch dimension";
      return nullptr;
    }
    in.shape[0] = t.batchSize;
  }
  OwningOpRef<ModuleOp> trainModule = importModel(ctx, batched, weightArgs);
  if (!trainModule) {
    emitRemark(jsonLocation(ctx, spec.sourcePath, "training.batch_size"))
        << "the train step has dim 0 of every input set to batch_size "
        << t.batchSize << "; shapes that depend on the batch (reshape) must "
        << "use -1";
    return nullptr;
  }
  auto train = trainModule->lookupSymbol<func::FuncOp>("main");
  train->remove();
  module->push_back(train);
  if (failed(buildTrainStep(train)))
    return nullptr;

  b.setInsertionPointToEnd(module->getBody());
  buildInit(b);
  (*module)->setAttr("mlc.trainable", b.getUnitAttr());
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importTrainingModel(MLIRContext *ctx,
                                          const ModelSpec &spec) {
  ctx->loadDialect<graph::GraphDialect, func::FuncDialect>();
  if (!spec.training.present) {
    emitError(jsonLocation(ctx, spec.sourcePath, ""))
        << "the model has no 'training' section (see docs/training.md)";
    return nullptr;
  }
  return TrainingImporter(ctx, spec).run();
}

} // namespace mlc::frontend
