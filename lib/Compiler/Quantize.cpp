//===- Quantize.cpp - post-training int8 quantization of a model ----------===//
//
// The sites are the float convolutions and matmuls whose weight is a
// constant (after batch norms folded into them). Each one not kept in float
// gets
//   - its input activation quantized asymmetrically to uint8 per tensor,
//     scale (hi - lo) / 255 over the calibrated range [lo, hi] widened to
//     hold 0, so that zero (padding, ReLU) is exact;
//   - its weight quantized symmetrically to int8 per output channel, scale
//     max|w| / 127, zero point 0,
// as graph.quantize/graph.dequantize pairs: a QDQ graph, which the pipeline
// folds (weights) and fuses (activations) like an exported one. By default
// the first convolution (the image's raw values) and the last matmul (the
// logits) stay in float, as is common practice.
//
//===----------------------------------------------------------------------===//

#include "Quantize.h"

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphBuilders.h"
#include "mlc/Dialect/Graph/GraphDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace mlir;
using namespace mlc::graph;
namespace json = llvm::json;

namespace mlc::compiler {
namespace {

/// One contraction that may be quantized.
struct Site {
  Operation *op;
  std::string name;
  bool keep = false;
  ActivationRange range;
  double scale = 1.0;
  int64_t zeroPoint = 0;

  Value activation() const { return op->getOperand(0); }
  Value weight() const { return op->getOperand(1); }
  bool isConv() const { return isa<Conv2DOp>(op); }
};

bool isF32Constant(Value v, int64_t rank) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto type = cast<RankedTensorType>(v.getType());
  return c && type.getElementType().isF32() &&
         (rank < 0 || type.getRank() == rank);
}

/// The node name in `loc`: the quoted part of the frontends' location
/// names ("node 'NAME' (Conv)" from ONNX, "nodes[3] (conv2d 'NAME')" from
/// model.json), else "".
std::string nodeName(Location loc) {
  std::string found;
  loc->walk([&](Location l) {
    auto named = dyn_cast<NameLoc>(l);
    if (!named)
      return WalkResult::advance();
    StringRef s = named.getName().getValue();
    auto [before, quoted] = s.split('\'');
    if (!quoted.empty())
      s = quoted.take_until([](char c) { return c == '\''; });
    found = s.str();
    return WalkResult::interrupt();
  });
  return found;
}

/// The sites of `func` in op order, named after their nodes (unique).
std::vector<Site> findSites(func::FuncOp func) {
  std::vector<Site> sites;
  llvm::StringMap<unsigned> seen;
  func.walk([&](Operation *op) {
    bool conv = isa<Conv2DOp>(op) && isF32Constant(op->getOperand(1), 4) &&
                cast<RankedTensorType>(op->getOperand(0).getType())
                    .getElementType()
                    .isF32();
    bool matmul = isa<MatMulOp>(op) && isF32Constant(op->getOperand(1), 2) &&
                  cast<RankedTensorType>(op->getOperand(0).getType())
                      .getElementType()
                      .isF32();
    if (!conv && !matmul)
      return;
    std::string name = nodeName(op->getLoc());
    if (name.empty())
      name = (conv ? "conv2d_" : "matmul_") + std::to_string(sites.size());
    if (unsigned n = seen[name]++)
      name += "#" + std::to_string(n);
    sites.push_back({op, name});
  });
  return sites;
}

LogicalResult fail(MLIRContext *ctx, const Twine &message) {
  emitError(UnknownLoc::get(ctx)) << message;
  return failure();
}

/// Marks the sites kept in float: the names given, or the first
/// convolution and the last matmul.
LogicalResult chooseKept(MLIRContext *ctx, std::vector<Site> &sites,
                         const std::vector<std::string> &keepFloat) {
  if (keepFloat.empty()) {
    auto firstConv = llvm::find_if(sites, [](Site &s) { return s.isConv(); });
    if (firstConv != sites.end())
      firstConv->keep = true;
    auto lastMatMul = llvm::find_if(llvm::reverse(sites),
                                    [](Site &s) { return !s.isConv(); });
    if (lastMatMul != sites.rend())
      lastMatMul->keep = true;
    return success();
  }
  for (const std::string &name : keepFloat) {
    if (name == "none")
      continue;
    auto it = llvm::find_if(sites, [&](Site &s) { return s.name == name; });
    if (it == sites.end()) {
      std::string names;
      for (Site &s : sites)
        names += (names.empty() ? "" : ", ") + s.name;
      return fail(ctx, "--quantize-keep names '" + name +
                           "', which is not a quantizable convolution or "
                           "matmul of the model (those are: " +
                           names + ")");
    }
    it->keep = true;
  }
  return success();
}

/// uint8 parameters covering [lo, hi] and 0.
void chooseParams(Site &site) {
  double lo = std::min(site.range.lo, 0.0), hi = std::max(site.range.hi, 0.0);
  site.scale = hi > lo ? (hi - lo) / 255.0 : 1.0;
  site.zeroPoint = std::clamp<int64_t>(std::llround(-lo / site.scale), 0, 255);
}

/// The float model with every quantized site's activation as an extra
/// result ("calibration_<i>").
OwningOpRef<ModuleOp> calibrationModule(ModuleOp module, func::FuncOp entry,
                                        ArrayRef<Site> sites,
                                        SmallVectorImpl<unsigned> &observed) {
  OwningOpRef<ModuleOp> clone = module.clone();
  auto func = clone->lookupSymbol<func::FuncOp>(entry.getSymName());
  std::vector<Site> cloneSites = findSites(func);
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  SmallVector<Value> results(ret.getOperands());
  for (auto [i, site] : llvm::enumerate(sites)) {
    if (site.keep)
      continue;
    observed.push_back(i);
    Value v = cloneSites[i].activation();
    unsigned index = func.getNumResults();
    (void)func.insertResult(
        index, v.getType(),
        DictionaryAttr::get(
            func.getContext(),
            {NamedAttribute(
                StringAttr::get(func.getContext(), "mlc.name"),
                StringAttr::get(func.getContext(),
                                "calibration_" + std::to_string(i)))}));
    results.push_back(v);
  }
  ret->setOperands(results);
  return clone;
}

/// Reads activation scales from a JSON file (a --report, or its
/// "quantization" object).
LogicalResult readScales(MLIRContext *ctx, StringRef path,
                         std::vector<Site> &sites) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(ctx, "cannot read scales file '" + path +
                         "': " + buffer.getError().message());
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return fail(ctx, "scales file '" + path +
                         "' is not JSON: " + toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  if (root && root->getObject("quantization"))
    root = root->getObject("quantization");
  const json::Array *list = root ? root->getArray("sites") : nullptr;
  if (!list)
    return fail(ctx, "scales file '" + path +
                         "' has no \"sites\" list (write one with --report)");
  llvm::StringMap<const json::Object *> byName;
  for (const json::Value &v : *list) {
    const json::Object *o = v.getAsObject();
    std::optional<StringRef> name = o ? o->getString("name") : std::nullopt;
    if (!name)
      return fail(ctx, "scales file '" + path + "': a site without a name");
    byName[*name] = o;
  }
  for (Site &site : sites) {
    if (site.keep)
      continue;
    const json::Object *o = byName.lookup(site.name);
    if (!o || o->getBoolean("kept").value_or(false))
      return fail(ctx, "scales file '" + path + "' has no scale for '" +
                           site.name + "' (a quantized " +
                           (site.isConv() ? "convolution" : "matmul") +
                           " of this model)");
    std::optional<double> scale = o->getNumber("scale");
    std::optional<int64_t> zp = o->getInteger("zero_point");
    if (!scale || !std::isfinite(*scale) || *scale <= 0)
      return fail(ctx, "scales file '" + path + "': '" + site.name +
                           "' needs a finite positive \"scale\"");
    if (!zp || *zp < 0 || *zp > 255)
      return fail(ctx, "scales file '" + path + "': '" + site.name +
                           "' needs an integer \"zero_point\" in [0, 255]");
    site.scale = *scale;
    site.zeroPoint = *zp;
    byName.erase(site.name);
  }
  for (auto &entry : byName)
    if (!entry.second->getBoolean("kept").value_or(false))
      return fail(ctx, "scales file '" + path + "' has a scale for '" +
                           entry.first() +
                           "', which is not a quantized site of this model");
  return success();
}

/// Per-output-channel symmetric int8 scales of a constant weight: dim 0 of
/// a conv's OIHW filter, dim 1 of a matmul's [K, N].
FailureOr<SmallVector<double>> weightScales(Site &site, int weightBits) {
  auto c = site.weight().getDefiningOp<ConstantOp>();
  FailureOr<HostTensor> w = fromElementsAttr(c.getValue());
  if (failed(w))
    return failure();
  ArrayRef<int64_t> shape = w->getShape();
  ArrayRef<float> v = w->values<float>();
  int64_t channels = site.isConv() ? shape[0] : shape[1];
  SmallVector<double> maxAbs(channels, 0.0);
  for (int64_t i = 0, n = v.size(); i < n; ++i) {
    int64_t ch = site.isConv() ? i / (n / channels) : i % channels;
    maxAbs[ch] = std::max<double>(maxAbs[ch], std::fabs(v[i]));
  }
  double top = double((1 << (weightBits - 1)) - 1); // 127, or 63 for 7 bits
  for (double &s : maxAbs)
    s = s > 0 ? s / top : 1.0;
  return maxAbs;
}

/// dequantize(quantize(v, s, z), s, z).
Value fakeQuant(OpBuilder &b, Location loc, Value v, Value s, Value z) {
  Value q = QuantizeOp::create(b, loc, v, s, z);
  return DequantizeOp::create(b, loc, q, s, z);
}

LogicalResult insertQDQ(Site &site, int weightBits, json::Object &entry) {
  OpBuilder b(site.op);
  Location loc = site.op->getLoc();
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Value s = splatConstant(b, loc, f32, {}, site.scale);
  Value z = splatConstant(b, loc, u8, {}, double(site.zeroPoint));
  site.op->setOperand(0, fakeQuant(b, loc, site.activation(), s, z));

  FailureOr<SmallVector<double>> ws = weightScales(site, weightBits);
  if (failed(ws))
    return fail(ctx, "cannot read the weight of '" + site.name + "'");
  SmallVector<int64_t> shape =
      site.isConv() ? SmallVector<int64_t>{int64_t(ws->size()), 1, 1, 1}
                    : SmallVector<int64_t>{1, int64_t(ws->size())};
  Value wScale = floatConstant(b, loc, f32, shape, *ws);
  Value wZero = splatConstant(b, loc, b.getI8Type(), shape, 0.0);
  site.op->setOperand(1, fakeQuant(b, loc, site.weight(), wScale, wZero));
  auto [lo, hi] = std::minmax_element(ws->begin(), ws->end());
  entry["weight_channels"] = int64_t(ws->size());
  entry["weight_scale_min"] = *lo;
  entry["weight_scale_max"] = *hi;
  return success();
}

} // namespace

LogicalResult quantizeModel(ModuleOp module, const CompileOptions &options,
                            json::Object &report) {
  MLIRContext *ctx = module.getContext();
  auto entry = module.lookupSymbol<func::FuncOp>("main");
  if (!entry)
    return fail(ctx, "--quantize: the model has no 'main' function");
  std::vector<Site> sites = findSites(entry);
  if (failed(chooseKept(ctx, sites, options.keepFloat)))
    return failure();
  if (llvm::all_of(sites, [](Site &s) { return s.keep; }))
    return fail(ctx, "--quantize: the model has no convolution or matmul "
                     "with constant weights to quantize (besides those kept "
                     "in float)");

  if (!options.quantScales.empty()) {
    if (failed(readScales(ctx, options.quantScales, sites)))
      return failure();
  } else {
    SmallVector<unsigned> observed;
    OwningOpRef<ModuleOp> calib =
        calibrationModule(module, entry, sites, observed);
    unsigned numSamples = 0;
    FailureOr<std::vector<ActivationRange>> ranges =
        calibrate(*calib, observed.size(), options, numSamples);
    if (failed(ranges))
      return failure();
    report["samples"] = int64_t(numSamples);
    for (auto [i, site] : llvm::enumerate(observed)) {
      sites[site].range = (*ranges)[i];
      chooseParams(sites[site]);
    }
  }

  json::Array list;
  for (Site &site : sites) {
    json::Object e{{"name", site.name},
                   {"op", site.isConv() ? "conv2d" : "matmul"},
                   {"kept", site.keep}};
    if (!site.keep) {
      if (options.quantScales.empty()) {
        e["min"] = site.range.lo;
        e["max"] = site.range.hi;
      }
      e["scale"] = site.scale;
      e["zero_point"] = site.zeroPoint;
      if (failed(insertQDQ(site, options.quantizeWeightBits, e)))
        return failure();
    }
    list.push_back(std::move(e));
  }
  report["method"] = options.quantScales.empty() ? options.calibrationMethod
                                                 : std::string("scales file");
  report["activations"] = "uint8 asymmetric, per tensor";
  report["weights"] = options.quantizeWeightBits == 8
                          ? "int8 symmetric, per output channel"
                          : "int8 within [-63, 63] (7 bits), symmetric, per "
                            "output channel";
  report["weight_bits"] = int64_t(options.quantizeWeightBits);
  report["sites"] = std::move(list);
  return success();
}

} // namespace mlc::compiler
