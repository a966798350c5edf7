//===- ContractionPlan.cpp - rows, vectors and operand accesses -----------===//
//
// Decides how a contraction kernel is blocked: which parallel dim runs along
// the vector lanes (n) and which one is the register rows (m), the tile
// sizes, and how each multiplicand, the initial value and the epilogue's
// operands are read. See ContractionKernel.cpp for the kernel itself.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernel.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::codegen;
using namespace mlc::codegen::contraction;

namespace mlc::codegen::contraction {

int64_t Plan::rowsFor(int64_t vecs, int64_t extent) const {
  // The accumulator budget over the tile's vectors: a 56-wide map in tiles
  // of 2 vectors ends with one vector, and 5 rows there kept 5 accumulators
  // busy, too few to hide the FMA latency (128 -> 32 channels, 3x3: 75
  // GFLOP/s, against 95 on a 28-wide map).
  int64_t rows = std::max<int64_t>(1, std::min(accBudget / vecs, rowCap));
  // One more row where the registers left over hold it (the accumulators,
  // a vector operand per column and a broadcast) and it leaves a better
  // tail: in FMA issue slots, a tile of r rows costs max(r * vecs, 8), 8
  // accumulators being what hides the FMA latency on two pipes. Measured
  // with 16 registers and 2 vectors (AVX2): rows of 6 on 28- and 56-wide
  // maps (28 = 4 x 6 + 4 against 5 x 5 + 3) ran the blocked 1x1
  // convolutions 3-4% faster, on 7x7 maps (49 = 8 x 6 + 1) 4% slower.
  // With more registers it is not measured, so not taken. Nor over a short
  // innermost reduction loop, which LLVM unrolls whole, hoisting all of its
  // broadcasts: stems (3-long loops over the kernel's columns) spilled and
  // ran 1.5x slower.
  if (extent <= 0 || vecs < 2 || registers > 16 || rows + 1 > rowCap ||
      (rows + 1) * vecs + vecs + 1 > registers || innerReduction < 8)
    return rows;
  auto cost = [&](int64_t r) {
    int64_t tail = extent % r;
    return extent / r * std::max<int64_t>(r * vecs, 8) +
           (tail ? std::max<int64_t>(tail * vecs, 8) : 0);
  };
  return cost(rows + 1) < cost(rows) ? rows + 1 : rows;
}

bool dependsOn(AffineMap map, unsigned dim) {
  return llvm::any_of(map.getResults(),
                      [&](AffineExpr e) { return e.isFunctionOfDim(dim); });
}

/// A loop dim, or the 0 that stands for a dim of extent 1.
bool isPlainResult(AffineExpr e) {
  if (isa<AffineDimExpr>(e))
    return true;
  auto c = dyn_cast<AffineConstantExpr>(e);
  return c && c.getValue() == 0;
}

/// Fills dependsM/N and how n indexes the tensor; false if it cannot be
/// read as vectors along n (n in two indices, or not linearly).
static bool classify(Access &a, const Plan &p) {
  a.dependsN = dependsOn(a.map, p.nDim);
  a.dependsM = p.mDim && dependsOn(a.map, *p.mDim);
  a.gather = false;
  if (!a.dependsN)
    return true;
  ArrayRef<AffineExpr> results = a.map.getResults();
  std::optional<unsigned> pos;
  for (auto [i, e] : llvm::enumerate(results)) {
    if (!e.isFunctionOfDim(p.nDim))
      continue;
    if (pos)
      return false;
    pos = i;
  }
  std::optional<SmallVector<int64_t>> form =
      linearForm(results[*pos], a.map.getNumDims());
  if (!form || (*form)[p.nDim] < 1)
    return false;
  a.nStride = (*form)[p.nDim];
  a.nResult = *pos;
  a.gather = *pos + 1 != results.size();
  return true;
}

/// out = out + a * b over f32, with the operands in either order.
static bool isMulAddBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || body.getOperations().size() != 3)
    return false;
  Value out = body.getArgument(2);
  Value prod = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (add.getLhs() != out && add.getRhs() != out)
    return false;
  auto mul = prod.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

static bool isContraction(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return false;
  auto outType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!outType || !outType.hasStaticShape() ||
      !outType.getElementType().isF32())
    return false;
  for (Value in : op.getDpsInputs()) {
    auto t = dyn_cast<RankedTensorType>(in.getType());
    if (!t || !t.hasStaticShape() || !t.getElementType().isF32())
      return false;
  }
  // Parallel loops first, output indexed by them in order.
  unsigned rank = outType.getRank();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (auto [i, it] : llvm::enumerate(iters))
    if ((i < rank) != (it == utils::IteratorType::parallel))
      return false;
  if (rank == 0 || rank == iters.size())
    return false;
  AffineMap outMap = op.getIndexingMapsArray()[2];
  if (outMap.getNumResults() != rank)
    return false;
  for (unsigned i = 0; i < rank; ++i)
    if (outMap.getResult(i) != getAffineDimExpr(i, op.getContext()))
      return false;
  return isMulAddBody(op);
}

bool isConstantInput(graph::FusionGroupOp group, Value v) {
  return static_cast<bool>(groupConstant(group, v));
}

std::optional<ArrayRef<float>> constantData(graph::FusionGroupOp group, Value v,
                                            std::vector<float> &storage) {
  arith::ConstantOp cst = groupConstant(group, v);
  auto attr = cst ? dyn_cast<ElementsAttr>(cst.getValue()) : ElementsAttr();
  auto type = attr ? dyn_cast<RankedTensorType>(attr.getType()) : nullptr;
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
    return std::nullopt;
  // Weights can be hundreds of MB: read them where they are when the bytes
  // are the row-major floats, suitably aligned.
  if (std::optional<ArrayRef<float>> values = graph::storedValues<float>(attr))
    return values;
  std::optional<graph::HostTensor> t = groupConstantTensor(group, v);
  if (!t || t->getKind() != graph::ElementKind::F32)
    return std::nullopt;
  ArrayRef<float> values = t->values<float>();
  storage.assign(values.begin(), values.end());
  return ArrayRef<float>(storage);
}

/// Chooses rows, tile sizes and operand accesses; nullopt: not our shape.
std::optional<Plan> makePlan(graph::FusionGroupOp group,
                             const KernelOptions &opts) {
  auto yield = cast<graph::YieldOp>(group.getBody().front().getTerminator());
  if (yield.getNumOperands() != 1)
    return std::nullopt;
  // The kernel's result may be returned through a collapsing view: a
  // grouped convolution's [N, G, O/G, OH, OW] or conv_transpose2d's
  // [N, Co, H, KH, W, KW], both NCHW views. The kernel writes the
  // contraction; the view stays.
  Value result = yield.getOperand(0);
  if (auto view = result.getDefiningOp<tensor::CollapseShapeOp>())
    result = view.getSrc();
  auto root = result.getDefiningOp<linalg::GenericOp>();
  if (!root || !root->hasOneUse())
    return std::nullopt;
  std::optional<KernelRoot> kr = matchKernelRoot(root, isContraction);
  if (!kr || (kr->epilogue &&
              kr->epilogue.getNumLoops() != kr->op.getNumParallelLoops()))
    return std::nullopt;
  Plan p;
  p.contraction = kr->op;
  p.epilogue = kr->epilogue;
  linalg::GenericOp c = p.contraction;
  p.numLoops = c.getNumLoops();
  p.numParallel = c.getNumParallelLoops();
  p.bounds = c.getStaticLoopRanges();
  p.nDim = p.numParallel - 1;
  SmallVector<AffineMap> maps = c.getIndexingMapsArray();
  auto plainIndices = [](AffineMap m) {
    return llvm::all_of(m.getResults(),
                        [](AffineExpr e) { return isa<AffineDimExpr>(e); });
  };
  bool lhsPlain = plainIndices(maps[0]), rhsPlain = plainIndices(maps[1]);
  // A loop of extent 1 (a 1x1 kernel's kh and kw, batch 1) contributes 0 to
  // every index: without it, x[c, oh + kh, ow + kw] reads as the plain
  // x[c, oh, ow] that can be packed and collapsed.
  SmallVector<AffineExpr> unitDims;
  for (unsigned d = 0; d < p.numLoops; ++d)
    unitDims.push_back(p.bounds[d] == 1
                           ? getAffineConstantExpr(0, c.getContext())
                           : getAffineDimExpr(d, c.getContext()));
  for (AffineMap &m : maps)
    m = simplifyAffineMap(m.replaceDimsAndSymbols(unitDims, {}, p.numLoops, 0));
  p.lhs = {c.getDpsInputs()[0], maps[0]};
  p.rhs = {c.getDpsInputs()[1], maps[1]};
  p.lhs.plainIndices = lhsPlain;
  p.rhs.plainIndices = rhsPlain;

  p.vw = std::max<int64_t>(4, opts.vectorBits / 32);
  // Vectors run along the output's last dim unless it fills lanes poorly
  // (a 7-wide feature map in 16 lanes) and a dim only a constant
  // multiplicand indexes by plain dims (output channels of the weights,
  // packed at compile time) fills them better: then the output is written
  // lane by lane, one store per result against a whole reduction, so the
  // switch also needs a long reduction when the loss is moderate.
  auto laneUse = [&](int64_t extent) {
    return double(extent) / double(llvm::divideCeil(extent, p.vw) * p.vw);
  };
  int64_t reduction = 1;
  for (unsigned d = p.numParallel; d < p.numLoops; ++d)
    reduction *= p.bounds[d];
  double lastUse = laneUse(p.bounds[p.nDim]);
  // Measured on ResNet-18's layers (AVX-512, one thread): 14-, 28- and
  // 7-wide maps with long reductions gain 1.3-2x; a 56-wide map with a
  // 576-long reduction loses 30% to the transposed stores. On AVX2 (7/8 of
  // the lanes of a 7-, 14- or 28-wide map), MobileNetV2's 1x1 convolutions
  // on those maps gain 1.15-1.5x from a 144-long reduction on and lose
  // 3-22% with 32-64.
  bool narrowMap = p.bounds[p.nDim] <= 28;
  // Not for a strided convolution with a full-size epilogue operand (a
  // downsample convolution with the residual add fused) below a 1024-long
  // reduction: that operand would be gathered lane by lane, which cost
  // ResNet-50's downsample kernels on 28- and 14-wide maps 12-20% more
  // than the lanes gained.
  auto strided = [&](AffineMap m) {
    return llvm::any_of(m.getResults(), [&](AffineExpr e) {
      std::optional<SmallVector<int64_t>> form = linearForm(e, m.getNumDims());
      return form && llvm::any_of(ArrayRef(*form).take_front(p.numParallel),
                                  [](int64_t k) { return k > 1; });
    });
  };
  bool gatheredEpilogue =
      p.epilogue && (strided(p.lhs.map) || strided(p.rhs.map)) &&
      llvm::any_of(p.epilogue.getDpsInputs(), [&](Value v) {
        return v != c.getResult(0) && v.getType() == c.getResult(0).getType();
      });
  if (lastUse < 0.75 ||
      (lastUse < 0.9 && (reduction >= 1024 || (narrowMap && reduction >= 128 &&
                                               !gatheredEpilogue)))) {
    for (unsigned d = 0; d + 1 < p.numParallel; ++d) {
      if (laneUse(p.bounds[d]) <= laneUse(p.bounds[p.nDim]) ||
          p.bounds[d] < p.vw)
        continue;
      bool l = dependsOn(p.lhs.map, d), r = dependsOn(p.rhs.map, d);
      if (l == r)
        continue;
      const Access &w = l ? p.lhs : p.rhs;
      bool plain = llvm::all_of(w.map.getResults(), isPlainResult);
      if (plain && isConstantInput(group, w.tensor)) {
        p.nDim = d;
        break;
      }
    }
  }
  // Rows: prefer an outer product (each multiplicand varies along only one
  // of rows and n), innermost such dim first.
  auto varies = [&](const Access &a, unsigned d) {
    return dependsOn(a.map, d);
  };
  bool outerProduct = false;
  for (int d = int(p.numParallel) - 1; d >= 0 && !p.mDim; --d) {
    if (p.bounds[d] < 2 || unsigned(d) == p.nDim)
      continue;
    bool l = varies(p.lhs, d), r = varies(p.rhs, d);
    bool ln = varies(p.lhs, p.nDim), rn = varies(p.rhs, p.nDim);
    if (l != r && !(l && ln) && !(r && rn)) {
      p.mDim = d;
      outerProduct = true;
    }
  }
  for (int d = int(p.numParallel) - 1; d >= 0 && !p.mDim; --d)
    if (p.bounds[d] >= 2 && unsigned(d) != p.nDim &&
        (varies(p.lhs, d) || varies(p.rhs, d)))
      p.mDim = d;
  if (!classify(p.lhs, p) || !classify(p.rhs, p))
    return std::nullopt;
  if (!p.lhs.dependsN && !p.rhs.dependsN)
    return std::nullopt; // n does not index a multiplicand: not worth it

  // Registers: accumulators take five eighths, the rest hold operands.
  int64_t accBudget = std::max<int64_t>(4, opts.vectorRegisters * 5 / 8);
  int64_t nVecs = llvm::divideCeil(p.bounds[p.nDim], p.vw);
  int64_t maxNv = opts.vectorRegisters >= 32 ? 4 : 2;
  p.nv = std::min(nVecs, maxNv);
  if (p.nDim + 1 != p.numParallel) {
    // The weight panel of one n tile is read by every output pixel: keep
    // it within about half of a core's L2 (1 MiB on the machines we tune
    // on) by narrowing the tile.
    while (p.nv > 1 && reduction * p.nv * p.vw * 4 > (640 << 10))
      --p.nv;
  }
  int64_t m = p.mDim ? p.bounds[*p.mDim] : 1;
  p.accBudget = accBudget;
  p.registers = opts.vectorRegisters;
  for (unsigned d = p.numParallel; d < p.numLoops; ++d)
    if (p.bounds[d] > 1)
      p.innerReduction = p.bounds[d];
  p.rowCap = std::min<int64_t>(m, outerProduct ? 12 : 4);
  p.mr = p.rowsFor(p.nv);

  // Initial value.
  Value init = c.getDpsInits()[0];
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Attribute a;
    if (!matchPattern(fill.getInputs()[0], m_Constant(&a)))
      return std::nullopt;
    p.initSplat = a;
  } else if (auto bcast = init.getDefiningOp<linalg::GenericOp>();
             bcast && bcast.getNumDpsInputs() == 1 &&
             bcast.getNumParallelLoops() == bcast.getNumLoops() &&
             bcast.getIndexingMapsArray().back().isIdentity() &&
             bcast.getRegion().front().getOperations().size() == 1 &&
             cast<linalg::YieldOp>(bcast.getRegion().front().getTerminator())
                     .getOperand(0) ==
                 bcast.getRegion().front().getArgument(0)) {
    // Bias broadcast: read the bias itself.
    AffineMap m0 = bcast.getIndexingMapsArray()[0];
    p.init = {bcast.getDpsInputs()[0],
              AffineMap::get(p.numLoops, 0, m0.getResults(), c.getContext())};
  } else {
    p.init = {init, AffineMap::get(p.numLoops, 0, maps[2].getResults(),
                                   c.getContext())};
  }
  if (p.init.tensor && !classify(p.init, p))
    return std::nullopt;

  if (p.epilogue) {
    for (OpOperand *in : p.epilogue.getDpsInputOperands()) {
      if (in->get() == c.getResult(0)) {
        p.epilogueInputs.push_back({});
        continue;
      }
      AffineMap em = p.epilogue.getMatchingIndexingMap(in);
      Access a{in->get(), simplifyAffineMap(em.replaceDimsAndSymbols(
                              ArrayRef(unitDims).take_front(em.getNumDims()),
                              {}, p.numLoops, 0))};
      if (!isa<RankedTensorType>(a.tensor.getType()) || !classify(a, p))
        return std::nullopt;
      p.epilogueInputs.push_back(a);
    }
  }
  return p;
}

} // namespace mlc::codegen::contraction
