//===- ONNXReduction.cpp - ONNX converters: reductions
//----------------------===//
//
// The converters for reductions (ReduceSum ... ReduceSumSquare, ArgMax,
// ArgMin, CumSum, Sum) and losses, and their rows of the converter table
// (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

/// The graph reduction a kind ends in (after its elementwise prologue).
FailureOr<Value> reduceByKind(N &n, ReduceKind kind, Value v,
                              ArrayRef<int64_t> axes, bool keepdims) {
  switch (kind) {
  case ReduceKind::Mean:
    return reduce<graph::ReduceMeanOp>(n, v, axes, keepdims);
  case ReduceKind::Max:
    return reduce<graph::ReduceMaxOp>(n, v, axes, keepdims);
  case ReduceKind::Min:
    return reduce<graph::ReduceMinOp>(n, v, axes, keepdims);
  case ReduceKind::Prod:
    return reduce<graph::ReduceProdOp>(n, v, axes, keepdims);
  default:
    return reduce<graph::ReduceSumOp>(n, v, axes, keepdims);
  }
}

LogicalResult convertReduce(N &n, ReduceKind kind) {
  Value x = n.input(0);
  int64_t rank = N::rankOf(x);
  MLC_TRY(keep, n.getInt("keepdims", 1));
  SmallVector<int64_t> axes;
  bool axesFromInput = kind == ReduceKind::Sum && n.opset >= 13;
  if (axesFromInput) {
    MLC_TRY(noop, n.getInt("noop_with_empty_axes", 0));
    if (n.hasInput(1)) {
      MLC_TRY(a, n.constantInts(1, "axes"));
      axes = a;
    }
    if (axes.empty() && noop) {
      n.setOutput(0, x);
      return success();
    }
  } else {
    MLC_TRY(a, n.getInts("axes", SmallVector<int64_t>()));
    axes = a;
  }
  if (axes.empty())
    axes = iota(rank);
  MLC_TRY(norm, normalizeAxes(n, axes, rank));
  Value v = x;
  switch (kind) {
  case ReduceKind::L1: {
    MLC_TRY(a, unary<graph::AbsOp>(n, x));
    v = a;
    break;
  }
  case ReduceKind::L2:
  case ReduceKind::SumSquare: {
    MLC_TRY(a, binary<graph::MulOp>(n, x, x));
    v = a;
    break;
  }
  case ReduceKind::LogSumExp: {
    MLC_TRY(a, unary<graph::ExpOp>(n, x));
    v = a;
    break;
  }
  default:
    break;
  }
  MLC_TRY(r, reduceByKind(n, kind, v, norm, keep != 0));
  if (kind == ReduceKind::L2)
    return out(n, unary<graph::SqrtOp>(n, r));
  if (kind == ReduceKind::LogSum || kind == ReduceKind::LogSumExp)
    return out(n, unary<graph::LogOp>(n, r));
  return out(n, r);
}

#define MLC_REDUCE(Name, Kind)                                                 \
  LogicalResult convert##Name(N &n) { return convertReduce(n, Kind); }
MLC_REDUCE(ReduceSum, ReduceKind::Sum)
MLC_REDUCE(ReduceMean, ReduceKind::Mean)
MLC_REDUCE(ReduceMax, ReduceKind::Max)
MLC_REDUCE(ReduceMin, ReduceKind::Min)
MLC_REDUCE(ReduceProd, ReduceKind::Prod)
MLC_REDUCE(ReduceL1, ReduceKind::L1)
MLC_REDUCE(ReduceL2, ReduceKind::L2)
MLC_REDUCE(ReduceLogSum, ReduceKind::LogSum)
MLC_REDUCE(ReduceLogSumExp, ReduceKind::LogSumExp)
MLC_REDUCE(ReduceSumSquare, ReduceKind::SumSquare)
#undef MLC_REDUCE

template <typename OpTy> LogicalResult convertArgMinMax(N &n) {
  Value x = n.input(0);
  MLC_TRY(axisAttr, n.getInt("axis", 0));
  MLC_TRY(keep, n.getInt("keepdims", 1));
  MLC_TRY(last, n.getInt("select_last_index", 0));
  MLC_TRY(axis, n.normalizeAxis(axisAttr, N::rankOf(x)));
  return out(n, n.emit<OpTy>({x}, {n.i64Attr("axis", axis),
                                   n.boolAttr("keepdims", keep),
                                   n.boolAttr("select_last_index", last)}));
}
LogicalResult convertArgMax(N &n) {
  return convertArgMinMax<graph::ArgMaxOp>(n);
}
LogicalResult convertArgMin(N &n) {
  return convertArgMinMax<graph::ArgMinOp>(n);
}

LogicalResult convertCumSum(N &n) {
  MLC_TRY(exclusive, n.getInt("exclusive", 0));
  MLC_TRY(reverse, n.getInt("reverse", 0));
  MLC_TRY(axisV, n.constantInts(1, "axis"));
  if (axisV.size() != 1)
    return n.error() << "axis must be a scalar", failure();
  Value x = n.input(0);
  MLC_TRY(axis, n.normalizeAxis(axisV[0], N::rankOf(x)));
  return out(n,
             n.emit<graph::CumSumOp>({x}, {n.i64Attr("axis", axis),
                                           n.boolAttr("exclusive", exclusive),
                                           n.boolAttr("reverse", reverse)}));
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// NegativeLogLikelihoodLoss on log-probabilities `logp` [N, C, d...].
FailureOr<Value> nllLoss(N &n, Value logp, Value target, Value weight) {
  MLC_TRY(reduction, n.getString("reduction", std::string("mean")));
  std::optional<int64_t> ignore;
  if (n.hasAttr("ignore_index")) {
    MLC_TRY(ii, n.getInt("ignore_index"));
    ignore = ii;
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.unsupported("reduction '" + reduction + "'");
  int64_t rank = N::rankOf(logp);
  if (rank < 2)
    return n.error() << "input must be [N, C, ...]", failure();
  int64_t classes = N::shapeOf(logp)[1];
  MLC_TRY(t, castTo(n, target, n.b.getI64Type()));
  Value mask, safe = t;
  if (ignore) {
    MLC_TRY(m, compare(n, Pred::ne, t, n.scalarLike(t, double(*ignore))));
    MLC_TRY(s, select(n, m, t, n.scalarLike(t, 0)));
    mask = m;
    safe = s;
  }
  // -logp[n, t[n, ...], ...] through a one-hot mask over C.
  SmallVector<int64_t> tshape(N::shapeOf(safe));
  tshape.insert(tshape.begin() + 1, 1);
  MLC_TRY(te, reshape(n, safe, tshape));
  SmallVector<int64_t> cshape(rank, 1);
  cshape[1] = classes;
  MLC_TRY(hot, compare(n, Pred::eq, te, n.i64Constant(iota(classes), cshape)));
  MLC_TRY(picked, select(n, hot, logp, n.scalarLike(logp, 0)));
  MLC_TRY(sum, reduce<graph::ReduceSumOp>(n, picked, {1}, false));
  MLC_TRY(loss, unary<graph::NegOp>(n, sum));
  Value w;
  if (weight) {
    MLC_TRY(wg,
            n.emit<graph::GatherOp>({weight, safe}, {n.i64Attr("axis", 0)}));
    w = wg;
  }
  if (mask) {
    MLC_TRY(mf, castTo(n, mask, N::elementTypeOf(logp)));
    if (w) {
      MLC_TRY(wm, binary<graph::MulOp>(n, w, mf));
      w = wm;
    } else {
      w = mf;
    }
  }
  Value l = loss;
  if (w) {
    MLC_TRY(lw, binary<graph::MulOp>(n, loss, w));
    l = lw;
  }
  if (reduction == "none")
    return l;
  SmallVector<int64_t> all = iota(N::rankOf(l));
  MLC_TRY(total, reduce<graph::ReduceSumOp>(n, l, all, false));
  if (reduction == "sum")
    return total;
  if (!w)
    return binary<graph::DivOp>(
        n, total, n.scalarLike(total, double(product(N::shapeOf(l)))));
  MLC_TRY(wsum, reduce<graph::ReduceSumOp>(n, w, all, false));
  return binary<graph::DivOp>(n, total, wsum);
}

LogicalResult convertNLLLoss(N &n) {
  return out(n, nllLoss(n, n.input(0), n.input(1), n.input(2)));
}

LogicalResult convertSCELoss(N &n) {
  MLC_TRY(logp,
          n.emit<graph::LogSoftmaxOp>({n.input(0)}, {n.i64Attr("axis", 1)}));
  MLC_TRY(loss, nllLoss(n, logp, n.input(1), n.input(2)));
  n.setOutput(0, loss);
  if (n.wantsOutput(1))
    n.setOutput(1, logp);
  return success();
}

LogicalResult convertSum(N &n) { return out(n, foldInputs<graph::AddOp>(n)); }

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"Sum", 1, kMax, 1, "", convertSum, ""},
    {"ReduceSum", 1, kMax, 1, "axes,keepdims,noop_with_empty_axes",
     convertReduceSum, "axes must be constant"},
    {"ReduceMean", 1, kMax, 1, "axes,keepdims", convertReduceMean, "float"},
    {"ReduceMax", 1, kMax, 1, "axes,keepdims", convertReduceMax, ""},
    {"ReduceMin", 1, kMax, 1, "axes,keepdims", convertReduceMin, ""},
    {"ReduceProd", 1, kMax, 1, "axes,keepdims", convertReduceProd, ""},
    {"ReduceL1", 1, kMax, 1, "axes,keepdims", convertReduceL1, ""},
    {"ReduceL2", 1, kMax, 1, "axes,keepdims", convertReduceL2, "float"},
    {"ReduceLogSum", 1, kMax, 1, "axes,keepdims", convertReduceLogSum, "float"},
    {"ReduceLogSumExp", 1, kMax, 1, "axes,keepdims", convertReduceLogSumExp,
     "float; computed as log(sum(exp(x))) like the ONNX reference"},
    {"ReduceSumSquare", 1, kMax, 1, "axes,keepdims", convertReduceSumSquare,
     ""},
    {"ArgMax", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMax,
     ""},
    {"ArgMin", 1, kMax, 1, "axis,keepdims,select_last_index", convertArgMin,
     ""},
    {"CumSum", 11, kMax, 2, "exclusive,reverse", convertCumSum,
     "axis must be constant"},
    {"NegativeLogLikelihoodLoss", 12, kMax, 2, "reduction,ignore_index",
     convertNLLLoss, ""},
    {"SoftmaxCrossEntropyLoss", 12, kMax, 2, "reduction,ignore_index",
     convertSCELoss, ""},
};

} // namespace

ArrayRef<OpConverter> getReductionConverters() { return kConverters; }

} // namespace mlc::frontend
