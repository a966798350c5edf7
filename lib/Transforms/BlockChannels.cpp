//===- BlockChannels.cpp - convolution regions in the NCHWc layout --------===//
//
// An NCHW activation puts a map's width in the vector lanes: a 7-wide map
// fills 7 of 8, and vectors along channels instead need transposed stores.
// In the blocked layout [N, C / B, H, W, B] every convolution, pooling and
// elementwise op of a region has B channels in its vectors and stores them
// whole (ONNX Runtime's NCHWc does the same). This pass:
//   1. marks the region: convolutions with a constant filter (one group,
//      depthwise, or groups of whole blocks or within one; integer ones the
//      same with symmetric weights) start
//      it; pooling, elementwise ops (quantize and dequantize among them)
//      and channel concats of a blocked value join it;
//   2. rewrites those ops on blocked values: graph.conv2d_nchwc or
//      graph.conv2d_integer_nchwc with its filter and bias repacked here,
//      the others with blocked operands;
//   3. reorders at the region's edges only (pad + reshape + transpose in,
//      transpose + reshape + slice out).
// Channels are padded to a multiple of B with zero filters and bias, so a
// padded channel holds a finite value that no real channel reads: only
// ops that keep a finite value finite may join (no division by a tensor,
// no log or sqrt).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Graph/Evaluator.h"
#include "mlc/Dialect/Graph/GraphDialect.h"
#include "mlc/Dialect/Graph/WeightBlobs.h"
#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>
#include <cstring>

namespace mlc::graph {
#define GEN_PASS_DEF_GRAPHBLOCKCHANNELS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc::graph

using namespace mlir;
using namespace mlc::graph;

namespace {

/// Channels a blocked value must have at least: fewer would be mostly
/// padding (a 3-channel image stays NCHW and feeds the plain-input form).
constexpr int64_t kMinChannels = 8;

/// A 4-D activation with enough channels: f32, or the 8-bit values and
/// int32 sums of integer convolutions.
bool isActivation(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getRank() != 4 || t.getDimSize(1) < kMinChannels)
    return false;
  Type e = t.getElementType();
  return e.isF32() || e.isInteger(8) || e.isInteger(32);
}

/// A constant's value, of any element kind.
std::optional<HostTensor> anyConstantTensor(Value v) {
  ElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  FailureOr<HostTensor> t = fromElementsAttr(attr);
  if (failed(t))
    return std::nullopt;
  return std::move(*t);
}

std::optional<HostTensor> constantTensor(Value v) {
  std::optional<HostTensor> t = anyConstantTensor(v);
  if (!t || t->getKind() != ElementKind::F32)
    return std::nullopt;
  return t;
}

/// Whether `v` is a constant of `elementType` (f32 or i8) that decodes,
/// checked without decoding it: filters are hundreds of MB.
bool isConstantOf(Value v, Type elementType) {
  ElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) ||
      attr.getElementType() != elementType)
    return false;
  return isa<DenseElementsAttr>(attr) ||
         storedElements(attr, elementType.getIntOrFloatBitWidth() / 8);
}

bool isFloatConstant(Value v) {
  return v && isConstantOf(v, Float32Type::get(v.getContext()));
}

/// A constant's values as `T`s (graph::constantValues). The caller knows
/// `v` is such a constant and that it decodes (isConstantOf).
template <typename T>
ArrayRef<T> constantValues(Value v, std::optional<HostTensor> &copy) {
  ElementsAttr attr;
  (void)matchPattern(v, m_Constant(&attr));
  return *mlc::graph::constantValues<T>(attr, copy);
}

/// Whether `v` is a constant of only zeros.
bool isZeroConstant(Value v) {
  std::optional<HostTensor> t = anyConstantTensor(v);
  return t && llvm::all_of(t->getBytes(), [](char c) { return c == 0; });
}

/// Elementwise ops that map finite values to finite values (padded
/// channels stay harmless), division only by a single constant.
bool keepsFinite(Operation *op) {
  if (isa<AddOp, SubOp, MulOp, MaxOp, MinOp, NegOp, AbsOp, ReluOp, SigmoidOp,
          TanhOp, GeluOp, ErfOp, FakeQuantizeOp, QuantizeOp, DequantizeOp>(op))
    return true;
  if (auto div = dyn_cast<DivOp>(op)) {
    std::optional<HostTensor> d = constantTensor(div.getRhs());
    return d && d->getNumElements() == 1 && d->values<float>()[0] != 0.0f;
  }
  return false;
}

/// A filter in the blocked layout: a new tensor, or the bytes of the old
/// filter's blob, rewritten where they were.
struct BlockedFilter {
  HostTensor tensor;
  std::optional<AsmResourceBlob> inPlace;
  RankedTensorType type; // of `inPlace`
};

class Blocker {
public:
  Blocker(func::FuncOp func, int64_t block, const BlobReferences &refs,
          ScratchBuffers &scratch)
      : func(func), block(block), refs(refs), scratch(scratch) {}

  void run() {
    for (Operation &op : func.getBody().front().without_terminator())
      if (joins(&op))
        region.insert(&op);
    pruneDeadEnds();
    if (region.empty())
      return;
    packFilters();
    for (Operation *op : region)
      rewrite(op);
    // Users outside the region read the NCHW value.
    for (Operation *op : llvm::reverse(region.getArrayRef())) {
      Value old = op->getResult(0);
      if (!old.use_empty()) {
        OpBuilder b(op);
        b.setInsertionPointAfterValue(blockedOf[old]);
        old.replaceAllUsesWith(reorderOut(b, blockedOf[old], old.getType()));
      }
      op->erase();
    }
  }

private:
  func::FuncOp func;
  int64_t block;
  const BlobReferences &refs;
  ScratchBuffers &scratch;
  llvm::SetVector<Operation *> region;
  DenseMap<Value, Value> blockedOf; // NCHW value -> its blocked form
  DenseMap<Operation *, BlockedFilter> filters; // packFilters' results

  int64_t blocks(int64_t c) const { return llvm::divideCeil(c, block); }
  bool inRegion(Value v) const {
    return v.getDefiningOp() && region.contains(v.getDefiningOp());
  }

  /// Drops the ops whose result no region op reads when the blocked layout
  /// gains them less than the reorder it costs: a convolution of an NCHW
  /// input (a 1-channel convolution, or the NCHW Winograd input transform
  /// when graph-winograd-convs ran first) or a
  /// depthwise one, and any op that reads an NCHW activation, which it
  /// would reorder in only for its result to be reordered out. Users come
  /// after their producers, so one pass from the end drops whole chains
  /// (ConvNeXt's depthwise convolutions and residual adds between its
  /// channels-last layer norms, two reorders per block for no gain).
  void pruneDeadEnds() {
    llvm::SetVector<Operation *> all = region;
    llvm::SmallPtrSet<Operation *, 32> keep;
    for (Operation *op : llvm::reverse(all)) {
      bool readByRegion = llvm::any_of(
          op->getUsers(), [&](Operation *u) { return keep.contains(u); });
      bool cheapConv = false;
      bool isConv = isa<Conv2DOp, Conv2DIntegerOp>(op);
      if (auto conv = dyn_cast<Conv2DOp>(op))
        cheapConv = conv.getInput().getType().getDimSize(1) < kMinChannels ||
                    (conv.getGroups() != 1 && !blockGroups(conv));
      int64_t c =
          cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(1);
      bool readsNchw =
          !isConv && llvm::any_of(op->getOperands(), [&](Value v) {
            auto t = cast<RankedTensorType>(v.getType());
            return !(v.getDefiningOp() && all.contains(v.getDefiningOp())) &&
                   !isFloatConstant(v) && t.getRank() == 4 &&
                   t.getDimSize(1) == c;
          });
      if (readByRegion || !(cheapConv || readsNchw))
        keep.insert(op);
    }
    region.remove_if([&](Operation *op) { return !keep.contains(op); });
  }

  /// A convolution that graph.conv2d_nchwc computes.
  bool isBlockableConv(Conv2DOp conv) const {
    auto in = conv.getInput().getType(), out = conv.getType();
    if (!in.getElementType().isF32() || out.getDimSize(1) < kMinChannels ||
        !isFloatConstant(conv.getFilter()) ||
        (conv.getBias() && !isFloatConstant(conv.getBias())))
      return false;
    return conv.getGroups() == 1 || isDepthwise(conv) || blockGroups(conv) != 0;
  }

  /// An integer convolution that graph.conv2d_integer_nchwc computes: one
  /// group, depthwise or groups that block (blockGroups), a constant int8
  /// filter with zero point 0, a one-value input zero point, enough
  /// channels on both sides.
  bool isBlockableIntegerConv(Conv2DIntegerOp conv) const {
    auto in = conv.getInput().getType(), out = conv.getType();
    return (conv.getGroups() == 1 || isDepthwise(conv) ||
            blockGroups(conv) != 0) &&
           in.getDimSize(1) >= kMinChannels &&
           out.getDimSize(1) >= kMinChannels &&
           isConstantOf(conv.getFilter(),
                        IntegerType::get(conv.getContext(), 8)) &&
           isZeroConstant(conv.getFilterZeroPoint()) &&
           conv.getInputZeroPoint().getType().getNumElements() == 1;
  }

  /// One group per channel, as many output channels as input ones.
  template <typename ConvT> static bool isDepthwise(ConvT conv) {
    int64_t groups = conv.getGroups();
    return groups != 1 && groups == conv.getInput().getType().getDimSize(1) &&
           groups == conv.getType().getDimSize(1);
  }

  /// The groups of a grouped (not depthwise) convolution in the blocked
  /// layout, or 0: its own when each group is whole blocks (ResNeXt's last
  /// stages), one per block when whole groups fit in a block (widths 4 and
  /// 8: ResNeXt's first stages, RegNet), the filter then block-diagonal
  /// with zeros between the groups of a block.
  template <typename ConvT> int64_t blockGroups(ConvT conv) const {
    int64_t groups = static_cast<int64_t>(conv.getGroups());
    int64_t c = conv.getInput().getType().getDimSize(1),
            o = conv.getType().getDimSize(1);
    if (groups == 1 || isDepthwise(conv))
      return 0;
    int64_t gw = c / groups, gwo = o / groups;
    if (gw % block == 0 && gwo % block == 0)
      return groups;
    if (gw == gwo && block % gw == 0)
      return blocks(c);
    return 0;
  }

  /// Whether `op` is computed on blocked values.
  bool joins(Operation *op) {
    if (op->getNumResults() != 1 || !isActivation(op->getResult(0)))
      return false;
    if (auto conv = dyn_cast<Conv2DOp>(op))
      return isBlockableConv(conv);
    if (auto conv = dyn_cast<Conv2DIntegerOp>(op))
      return isBlockableIntegerConv(conv);
    bool anyBlocked =
        llvm::any_of(op->getOperands(), [&](Value v) { return inRegion(v); });
    if (!anyBlocked)
      return false;
    if (isa<MaxPool2DOp, AvgPool2DOp, GlobalAvgPoolOp>(op))
      return true;
    if (auto bn = dyn_cast<BatchNormOp>(op))
      // Becomes x * s + t with constant [C] parameters (DenseNet's
      // pre-activations read a concatenation).
      return inRegion(bn.getInput()) &&
             llvm::all_of(op->getOperands().drop_front(), [](Value v) {
               return cast<RankedTensorType>(v.getType()).getRank() == 1 &&
                      isFloatConstant(v);
             });
    if (auto concat = dyn_cast<ConcatOp>(op))
      // Padding inside the result would shift the later inputs.
      return concat.getAxis() == 1 &&
             llvm::all_of(concat.getInputs(), [&](Value v) {
               return isActivation(v) &&
                      cast<RankedTensorType>(v.getType()).getDimSize(1) %
                              block ==
                          0;
             });
    if (!isBroadcastingElementwise(op) || !keepsFinite(op))
      return false;
    // Integer values: only those of quantization (no integer arithmetic).
    bool quant = isa<QuantizeOp, DequantizeOp, FakeQuantizeOp>(op);
    int64_t c =
        cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(1);
    return llvm::all_of(op->getOperands(), [&](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t || t.getRank() > 4 || (!quant && !t.getElementType().isF32()))
        return false;
      // Right-aligned to NCHW: its channel dim is 1 or C.
      int64_t ch = t.getRank() >= 3 ? t.getDimSize(t.getRank() - 3) : 1;
      return ch == 1 || ch == c;
    });
  }

  /// [N, C, H, W] -> [N, C / B, H, W, B], channels padded with zeros.
  Value reorderIn(OpBuilder &b, Value v) {
    auto it = blockedOf.find(v);
    if (it != blockedOf.end())
      return it->second;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(v);
    Location loc = v.getLoc();
    auto t = cast<RankedTensorType>(v.getType());
    int64_t n = t.getDimSize(0), c = t.getDimSize(1), h = t.getDimSize(2),
            w = t.getDimSize(3), cb = blocks(c);
    Value x = v;
    if (cb * block != c)
      x = PadOp::create(b, loc, x,
                        ArrayRef<int64_t>{0, 0, 0, 0, 0, cb * block - c, 0, 0},
                        APFloat(0.0));
    x = ReshapeOp::create(b, loc, x, ArrayRef<int64_t>{n, cb, block, h, w});
    x = TransposeOp::create(b, loc, x, ArrayRef<int64_t>{0, 1, 3, 4, 2});
    blockedOf[v] = x;
    return x;
  }

  /// [N, C / B, H, W, B] -> `type` = [N, C, H, W].
  Value reorderOut(OpBuilder &b, Value v, Type type) {
    Location loc = v.getLoc();
    auto t = cast<RankedTensorType>(v.getType());
    auto out = cast<RankedTensorType>(type);
    int64_t n = t.getDimSize(0), cb = t.getDimSize(1), h = t.getDimSize(2),
            w = t.getDimSize(3), c = out.getDimSize(1);
    Value x = TransposeOp::create(b, loc, v, ArrayRef<int64_t>{0, 1, 4, 2, 3});
    x = ReshapeOp::create(b, loc, x, ArrayRef<int64_t>{n, cb * block, h, w});
    if (cb * block != c)
      x = SliceOp::create(b, loc, x, ArrayRef<int64_t>{0, 0, 0, 0},
                          ArrayRef<int64_t>{n, c, h, w},
                          ArrayRef<int64_t>{1, 1, 1, 1});
    return x;
  }

  Value constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                 ArrayRef<float> values, StringRef name) {
    HostTensor t = HostTensor::get<float>(ElementKind::F32, shape, values);
    return ConstantOp::create(b, loc, toElementsAttr(b.getContext(), t, name));
  }

  /// An operand of an elementwise op with result [N, C, H, W], as an
  /// operand of the blocked op: channel dim 1 broadcasts over both channel
  /// dims, channel dim C is blocked (a constant here, others reordered).
  Value blockedOperand(OpBuilder &b, Value v, int64_t c, bool padOne = false) {
    if (inRegion(v))
      return blockedOf.lookup(v);
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> s(4 - t.getRank(), 1);
    llvm::append_range(s, t.getShape());
    Location loc = v.getLoc();
    if (s[1] == 1)
      return ReshapeOp::create(b, loc, v,
                               ArrayRef<int64_t>{s[0], 1, s[2], s[3], 1});
    if (std::optional<HostTensor> k = anyConstantTensor(v)) {
      // Padded channels hold 0, or 1 (a quantization's scale: no division
      // by zero there).
      int64_t cb = blocks(c);
      HostTensor dst(k->getKind(), {s[0], cb, s[2], s[3], block});
      if (padOne && dst.getKind() == ElementKind::F32)
        std::fill(dst.values<float>().begin(), dst.values<float>().end(), 1.0f);
      int64_t es =
          k->getSizeInBytes() / std::max<int64_t>(k->getNumElements(), 1);
      ArrayRef<char> src = k->getBytes();
      MutableArrayRef<char> out = dst.getMutableBytes();
      for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t ch = 0; ch < c; ++ch)
          for (int64_t hw = 0; hw < s[2] * s[3]; ++hw)
            std::memcpy(
                &out[((((n * cb + ch / block) * s[2] * s[3]) + hw) * block +
                      ch % block) *
                     es],
                &src[((n * c + ch) * s[2] * s[3] + hw) * es], es);
      return ConstantOp::create(
          b, loc,
          toElementsAttr(b.getContext(), std::move(dst), "nchwc_operand"));
    }
    if (t.getRank() != 4)
      v = ReshapeOp::create(b, loc, v, s);
    return reorderIn(b, v);
  }

  /// Whether `conv`'s filter takes the depthwise or the plain (unblocked
  /// input channels) layout.
  std::pair<bool, bool> filterForm(Conv2DOp conv) const {
    int64_t ci = conv.getInput().getType().getDimSize(1);
    bool depthwise = conv.getGroups() != 1 && !blockGroups(conv);
    bool plain = !depthwise && ci < kMinChannels && !inRegion(conv.getInput());
    return {depthwise, plain};
  }

  /// The filter `filter` (values `src`) in the blocked layout `shape`,
  /// written by `fill(src, dst)`. The filters are most of a model's bytes:
  /// read where they are, and written over the old filter's own bytes when
  /// the layouts have the same size and nothing else reads them (from a
  /// copy in a reused scratch buffer), else into the tensor whose storage
  /// the new constant's blob takes over.
  template <typename T, typename Fill>
  BlockedFilter blockFilter(ElementKind kind, Value filter, ArrayRef<T> src,
                            ArrayRef<int64_t> shape, Fill &&fill) const {
    BlockedFilter out;
    int64_t n = ShapedType::getNumElements(shape);
    size_t bytes = n * sizeof(T);
    Operation *cst = filter.getDefiningOp();
    BlobEntry *blob = weightBlob(cst);
    std::optional<MutableArrayRef<char>> own;
    // (A splat would become a dense attribute, as toElementsAttr makes it.)
    if (n == int64_t(src.size()) && n > kMaxDenseAttrElements &&
        refs.soleReader(cst) && !llvm::all_equal(src))
      own = writableBytes(blob, bytes, alignof(T));
    if (!own || own->data() != reinterpret_cast<const char *>(src.data())) {
      out.tensor = HostTensor(kind, shape);
      fill(src, out.tensor.template values<T>());
      return out;
    }
    scratch.rewriteFromCopy(
        MutableArrayRef<T>(reinterpret_cast<T *>(own->data()), n), fill);
    out.inPlace = takeBlob(blob);
    out.type = RankedTensorType::get(
        shape, cast<ShapedType>(filter.getType()).getElementType());
    return out;
  }

  /// `conv`'s filter in the blocked layout. Reads only (but for a filter
  /// blockFilter may rewrite in place): runs on several threads.
  BlockedFilter packFilter(Conv2DOp conv) const {
    auto [depthwise, plain] = filterForm(conv);
    std::optional<HostTensor> copy;
    ArrayRef<float> values = constantValues<float>(conv.getFilter(), copy);
    auto ws = cast<ShapedType>(conv.getFilter().getType()).getShape();
    int64_t o = ws[0], ci = ws[1], kh = ws[2], kw = ws[3], ob = blocks(o);
    int64_t taps = kh * kw;
    using Src = ArrayRef<float>;
    using Dst = MutableArrayRef<float>;
    auto filter = [&](ArrayRef<int64_t> shape, auto &&fill) {
      return blockFilter<float>(ElementKind::F32, conv.getFilter(), values,
                                shape, fill);
    };
    if (int64_t groups = blockGroups(conv)) {
      int64_t cg = groupBlocks(conv, groups);
      return filter({ob, cg, kh, kw, block, block}, [&](Src src, Dst dst) {
        blockGroupedFilter<float>(src, dst, o, ci, taps, conv.getGroups(), cg);
      });
    }
    if (depthwise)
      return filter({ob, kh, kw, block}, [&](Src src, Dst dst) {
        blockDepthwiseFilter<float>(src, dst, o, taps);
      });
    if (plain) {
      // [O, C, KH, KW] -> [O / B, C, KH, KW, B].
      return filter({ob, ci, kh, kw, block}, [&](Src src, Dst dst) {
        for (int64_t k = 0; k < o; ++k)
          for (int64_t c = 0; c < ci; ++c)
            for (int64_t t = 0; t < taps; ++t)
              dst[(((k / block) * ci + c) * taps + t) * block + k % block] =
                  src[(k * ci + c) * taps + t];
      });
    }
    int64_t cb = blocks(ci);
    return filter({ob, cb, kh, kw, block, block}, [&](Src src, Dst dst) {
      blockGroupedFilter<float>(src, dst, o, ci, taps, 1, cb);
    });
  }

  /// The input blocks each output block of a grouped convolution reads
  /// (blockGroups' G' groups): its group's (G' = G), or the one holding its
  /// own group (G' = blocks).
  template <typename ConvT>
  int64_t groupBlocks(ConvT conv, int64_t groups) const {
    int64_t ci = cast<ShapedType>(conv.getFilter().getType()).getDimSize(1);
    return groups == static_cast<int64_t>(conv.getGroups()) ? ci / block : 1;
  }

  /// [O, C / G, KH, KW] -> [O / B, cg, KH, KW, B (input), B (output)], cg
  /// = groupBlocks: input channel j of output k's group sits at its offset
  /// in the group's blocks (G' = G), or in k's own block (G' = blocks);
  /// zeros elsewhere (and in padded channels). One group: cg = C / B
  /// padded up, every channel at its own offset.
  template <typename T>
  void blockGroupedFilter(ArrayRef<T> src, MutableArrayRef<T> dst, int64_t o,
                          int64_t ci, int64_t taps, int64_t convGroups,
                          int64_t cg) const {
    int64_t gwo = o / convGroups;
    for (int64_t k = 0; k < o; ++k)
      for (int64_t j = 0; j < ci; ++j) {
        // The input channel within the blocks the output block reads.
        int64_t local = cg == 1 ? (k / gwo) * ci % block + j : j;
        for (int64_t t = 0; t < taps; ++t)
          dst[((((k / block) * cg + local / block) * taps + t) * block +
               local % block) *
                  block +
              k % block] = src[(k * ci + j) * taps + t];
      }
  }

  /// [C, 1, KH, KW] -> [C / B, KH, KW, B], the padded channels zero.
  template <typename T>
  void blockDepthwiseFilter(ArrayRef<T> src, MutableArrayRef<T> dst, int64_t c,
                            int64_t taps) const {
    for (int64_t k = 0; k < c; ++k)
      for (int64_t t = 0; t < taps; ++t)
        dst[((k / block) * taps + t) * block + k % block] = src[k * taps + t];
  }

  BlockedFilter packIntegerFilter(Conv2DIntegerOp conv) const {
    std::optional<HostTensor> copy;
    ArrayRef<int8_t> values = constantValues<int8_t>(conv.getFilter(), copy);
    ArrayRef<int64_t> ws =
        cast<ShapedType>(conv.getFilter().getType()).getShape();
    int64_t taps = ws[2] * ws[3];
    bool depthwise = isDepthwise(conv);
    int64_t groups = blockGroups(conv);
    int64_t cb = groups ? groupBlocks(conv, groups) : blocks(ws[1]);
    SmallVector<int64_t> shape =
        depthwise ? SmallVector<int64_t>{blocks(ws[0]), ws[2], ws[3], block}
                  : SmallVector<int64_t>{blocks(ws[0]), cb,    ws[2],
                                         ws[3],         block, block};
    return blockFilter<int8_t>(
        ElementKind::I8, conv.getFilter(), values, shape,
        [&](ArrayRef<int8_t> src, MutableArrayRef<int8_t> dst) {
          if (depthwise)
            blockDepthwiseFilter<int8_t>(src, dst, ws[0], taps);
          else
            blockGroupedFilter<int8_t>(src, dst, ws[0], ws[1], taps,
                                       groups ? conv.getGroups() : 1, cb);
        });
  }

  /// The blocked filters of the region's convolutions, repacked on the
  /// context's threads (their bytes are most of a model's). The constants
  /// are made later, in program order, so that blob names stay the same.
  void packFilters() {
    SmallVector<Operation *> convs;
    for (Operation *op : region)
      if (isa<Conv2DOp, Conv2DIntegerOp>(op))
        convs.push_back(op);
    std::vector<BlockedFilter> packed(convs.size());
    parallelFor(func.getContext(), 0, convs.size(), [&](size_t i) {
      if (auto conv = dyn_cast<Conv2DOp>(convs[i]))
        packed[i] = packFilter(conv);
      else
        packed[i] = packIntegerFilter(cast<Conv2DIntegerOp>(convs[i]));
    });
    for (auto [op, filter] : llvm::zip(convs, packed))
      filters[op] = std::move(filter);
  }

  Value filterConstant(OpBuilder &b, Operation *conv) {
    BlockedFilter &f = filters[conv];
    if (f.inPlace)
      return ConstantOp::create(
          b, conv->getLoc(),
          DenseResourceElementsAttr::get(f.type, "nchwc_filter",
                                         std::move(*f.inPlace)));
    return ConstantOp::create(
        b, conv->getLoc(),
        toElementsAttr(b.getContext(), std::move(f.tensor), "nchwc_filter"));
  }

  Value blockedBias(OpBuilder &b, Conv2DOp conv) {
    std::optional<HostTensor> bias = constantTensor(conv.getBias());
    if (!bias)
      return {};
    int64_t o = bias->getNumElements(), ob = blocks(o);
    SmallVector<float> dst(ob * block, 0.0f);
    llvm::copy(bias->values<float>(), dst.begin());
    return constant(b, conv.getLoc(), {ob, block}, dst, "nchwc_bias");
  }

  /// batch_norm(x) = x * s + t, s = scale / sqrt(var + eps), t = bias -
  /// mean * s (in double), both [1, C / B, 1, 1, B] with zeros in padded
  /// channels.
  Value batchNormAsScaleShift(OpBuilder &b, BatchNormOp bn, int64_t c) {
    HostTensor st = *constantTensor(bn.getScale()),
               bt = *constantTensor(bn.getBias()),
               mt = *constantTensor(bn.getMean()),
               vt = *constantTensor(bn.getVariance());
    ArrayRef<float> scale = st.values<float>(), bias = bt.values<float>(),
                    mean = mt.values<float>(), var = vt.values<float>();
    double eps = bn.getEpsilon().convertToDouble();
    int64_t cb = blocks(c);
    SmallVector<float> sv(cb * block, 0.0f), tv(cb * block, 0.0f);
    for (int64_t ch = 0; ch < c; ++ch) {
      double f = double(scale[ch]) / std::sqrt(double(var[ch]) + eps);
      sv[ch] = float(f);
      tv[ch] = float(double(bias[ch]) - double(mean[ch]) * f);
    }
    Location loc = bn.getLoc();
    Value x = blockedOf.lookup(bn.getInput());
    Value scaled = MulOp::create(
        b, loc, x, constant(b, loc, {1, cb, 1, 1, block}, sv, "nchwc_scale"));
    return AddOp::create(
        b, loc, scaled,
        constant(b, loc, {1, cb, 1, 1, block}, tv, "nchwc_shift"));
  }

  void rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto outType = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t c = outType.getDimSize(1);
    Value result;
    if (auto conv = dyn_cast<Conv2DOp>(op)) {
      int64_t ci = conv.getInput().getType().getDimSize(1);
      int64_t groups = blockGroups(conv);
      bool plain = filterForm(conv).second;
      Value input =
          plain ? conv.getInput() : blockedOperand(b, conv.getInput(), ci);
      result = Conv2DNchwcOp::create(
          b, loc, input, filterConstant(b, conv), blockedBias(b, conv),
          conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
          groups ? groups : 1);
    } else if (auto conv = dyn_cast<Conv2DIntegerOp>(op)) {
      int64_t ci = conv.getInput().getType().getDimSize(1);
      int64_t groups = blockGroups(conv);
      result = Conv2DIntegerNchwcOp::create(
          b, loc, blockedOperand(b, conv.getInput(), ci),
          filterConstant(b, conv), conv.getInputZeroPoint(),
          conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
          groups ? groups : 1);
    } else if (auto bn = dyn_cast<BatchNormOp>(op)) {
      result = batchNormAsScaleShift(b, bn, c);
    } else if (auto concat = dyn_cast<ConcatOp>(op)) {
      SmallVector<Value> inputs;
      for (Value v : concat.getInputs())
        inputs.push_back(blockedOperand(
            b, v, cast<RankedTensorType>(v.getType()).getDimSize(1)));
      result = ConcatOp::create(b, loc, inputs, concat.getAxis());
    } else {
      // Pools and elementwise ops: the same op on blocked operands.
      IRMapping map;
      for (Value v : op->getOperands())
        map.map(v, blockedOperand(b, v, c,
                                  isa<QuantizeOp, FakeQuantizeOp>(op) &&
                                      v == op->getOperand(1)));
      Operation *clone = b.clone(*op, map);
      SmallVector<int64_t> shape = {outType.getDimSize(0), blocks(c),
                                    outType.getDimSize(2),
                                    outType.getDimSize(3), block};
      clone->getResult(0).setType(
          RankedTensorType::get(shape, outType.getElementType()));
      result = clone->getResult(0);
    }
    blockedOf[op->getResult(0)] = result;
  }
};

struct GraphBlockChannels
    : mlc::graph::impl::GraphBlockChannelsBase<GraphBlockChannels> {
  using Base::Base;

  void runOnOperation() override {
    if (block < 1) {
      emitError(getOperation().getLoc(),
                "graph-block-channels: block must be positive, got ")
          << static_cast<int64_t>(block);
      return signalPassFailure();
    }
    BlobReferences refs(getOperation());
    ScratchBuffers scratch;
    getOperation()->walk([&](func::FuncOp func) {
      if (!func.getBody().empty() && func.getBody().hasOneBlock())
        Blocker(func, block, refs, scratch).run();
    });
  }
};

} // namespace
