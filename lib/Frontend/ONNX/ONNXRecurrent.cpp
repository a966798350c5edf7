//===- ONNXRecurrent.cpp - ONNX converters: RNNs
//----------------------------===//
//
// The converters for RNN, GRU and LSTM (unrolled over the static sequence), and
// their rows of the converter table (getONNXConverters, docs/supported-ops.md).
//
//===----------------------------------------------------------------------===//

#include "ONNXBuilders.h"

#include <cmath>
#include <map>

using namespace mlir;

namespace mlc::frontend {
namespace {

//===----------------------------------------------------------------------===//
// Recurrent layers, unrolled over the (static) sequence
//===----------------------------------------------------------------------===//

enum class RecurrentKind { RNN, GRU, LSTM };

/// The gate nonlinearities ONNX defaults to; other activation lists are
/// refused.
LogicalResult checkDefaultActivations(N &n, RecurrentKind kind, int64_t dirs) {
  if (!n.hasAttr("activations"))
    return success();
  const onnx::Attribute *a = n.getAttr("activations");
  SmallVector<std::string> want =
      kind == RecurrentKind::RNN ? SmallVector<std::string>{"Tanh"}
      : kind == RecurrentKind::GRU
          ? SmallVector<std::string>{"Sigmoid", "Tanh"}
          : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  SmallVector<std::string> all;
  for (int64_t d = 0; d < dirs; ++d)
    all.append(want.begin(), want.end());
  if (a->kind != onnx::Attribute::Strings ||
      !llvm::equal(a->strings, all,
                   [](const std::string &x, const std::string &y) {
                     return StringRef(x).equals_insensitive(y);
                   }))
    return n.unsupported("non-default activations");
  return success();
}

LogicalResult convertRecurrent(N &n, RecurrentKind kind) {
  MLC_TRY(hidden, n.getInt("hidden_size"));
  // A dim of W is gates * hidden_size: bounded like every dim (2^40), so
  // that product cannot overflow.
  if (hidden <= 0 || hidden > (int64_t(1) << 40))
    return n.error() << "hidden_size must be in [1, 2^40], got " << hidden,
           failure();
  MLC_TRY(direction, n.getString("direction", std::string("forward")));
  MLC_TRY(layout, n.getInt("layout", 0));
  MLC_TRY(lbr, n.getInt("linear_before_reset", 0));
  MLC_TRY(inputForget, n.getInt("input_forget", 0));
  if (n.hasAttr("clip"))
    return n.unsupported("clip");
  if (n.hasAttr("activation_alpha") || n.hasAttr("activation_beta"))
    return n.unsupported("activation_alpha/beta");
  if (inputForget)
    return n.unsupported("input_forget");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && dirs != 2)
    return n.unsupported("direction '" + direction + "'");
  if (failed(checkDefaultActivations(n, kind, dirs)))
    return failure();
  int64_t gates = kind == RecurrentKind::RNN   ? 1
                  : kind == RecurrentKind::GRU ? 3
                                               : 4;
  Value x = n.input(0), w = n.input(1), r = n.input(2);
  if (N::rankOf(x) != 3)
    return n.error() << "X must have rank 3", failure();
  if (layout) {
    MLC_TRY(t, transpose(n, x, {1, 0, 2}));
    x = t;
  }
  ArrayRef<int64_t> xs = N::shapeOf(x);
  int64_t seq = xs[0], batch = xs[1], in = xs[2], gh = gates * hidden;
  if (N::shapeOf(w) != ArrayRef<int64_t>{dirs, gh, in} ||
      N::shapeOf(r) != ArrayRef<int64_t>{dirs, gh, hidden})
    return n.error() << "W or R has the wrong shape for hidden_size " << hidden,
           failure();
  Type elt = N::elementTypeOf(x);
  // Sequence lengths: a mask per step (forward only when they vary).
  Value lens = n.hasInput(4) ? n.input(4) : Value();
  if (lens) {
    if (auto c = n.tryConstant(lens)) {
      MLC_TRY(v, n.constantInts(4, "sequence_lens"));
      if (llvm::all_of(v, [&](int64_t l) { return l == seq; }))
        lens = Value();
    }
  }
  if (lens && direction != "forward")
    return n.unsupported("sequence_lens with direction '" + direction + "'");
  Value lens64;
  if (lens) {
    MLC_TRY(l, castTo(n, lens, n.b.getI64Type()));
    MLC_TRY(l2, reshape(n, l, {batch, 1}));
    lens64 = l2;
  }
  auto zeros = [&](ArrayRef<int64_t> shape) {
    return n.constant(RankedTensorType::get(shape, elt),
                      SmallVector<double>(product(shape), 0.0));
  };
  auto take = [&](Value v, int64_t axis, int64_t k,
                  int64_t size) -> FailureOr<Value> {
    return sliceAxis(n, v, axis, k * size, (k + 1) * size);
  };
  // Drops the leading unit dim of a [1, ...] slice.
  auto squeeze0 = [&](Value v) {
    return reshape(n, v, N::shapeOf(v).drop_front());
  };
  // Direction d's part of a [dirs, ...] operand.
  auto forDirection = [&](Value v, int64_t d) -> FailureOr<Value> {
    MLC_TRY(part, take(v, 0, d, 1));
    return squeeze0(part);
  };
  // Input i for direction d, or zeros [batch, hidden] when omitted.
  auto initialState = [&](unsigned i, int64_t d) -> FailureOr<Value> {
    if (!n.hasInput(i))
      return zeros({batch, hidden});
    return forDirection(n.input(i), d);
  };
  auto plus = [&](Value a, Value b) -> FailureOr<Value> {
    return b ? binary<graph::AddOp>(n, a, b) : FailureOr<Value>(a);
  };
  auto gate = [&](Value v, int64_t g) { return take(v, 1, g, hidden); };

  SmallVector<Value> yh(dirs), yc(dirs);
  SmallVector<SmallVector<Value>> steps(dirs);
  for (int64_t d = 0; d < dirs; ++d) {
    MLC_TRY(wd, forDirection(w, d));
    MLC_TRY(rd, forDirection(r, d));
    MLC_TRY(wt, transpose(n, wd, {1, 0}));
    MLC_TRY(rt, transpose(n, rd, {1, 0}));
    // Input projections of all steps at once: [seq * batch, gh].
    MLC_TRY(x2, reshape(n, x, {seq * batch, in}));
    MLC_TRY(xw2, binary<graph::MatMulOp>(n, x2, wt));
    Value xw = xw2, rb;
    if (n.hasInput(3)) {
      MLC_TRY(bd, forDirection(n.input(3), d));
      MLC_TRY(wb, take(bd, 0, 0, gh));
      MLC_TRY(rbb, take(bd, 0, 1, gh));
      rb = rbb;
      if (kind == RecurrentKind::GRU && lbr) {
        // The hidden gate's recurrent bias goes inside r * (...).
        MLC_TRY(xb, binary<graph::AddOp>(n, xw, wb));
        xw = xb;
      } else {
        MLC_TRY(sum, binary<graph::AddOp>(n, wb, rbb));
        MLC_TRY(xb, binary<graph::AddOp>(n, xw, sum));
        xw = xb;
        rb = Value();
      }
    }
    MLC_TRY(xw3, reshape(n, xw, {seq, batch, gh}));
    MLC_TRY(h0, initialState(5, d));
    Value h = h0, c;
    if (kind == RecurrentKind::LSTM) {
      MLC_TRY(c0, initialState(6, d));
      c = c0;
    }
    // Loop-invariant pieces. GRU without linear_before_reset multiplies
    // r * h by the hidden gate's weights itself, so h @ R^T needs only the
    // z and r columns.
    Value recurrent = rt, rh, rbz, rbr, rbh, pi, po, pf;
    if (kind == RecurrentKind::GRU) {
      if (!lbr) {
        MLC_TRY(zr, sliceAxis(n, rt, 1, 0, 2 * hidden));
        MLC_TRY(hgate, take(rt, 1, 2, hidden));
        recurrent = zr;
        rh = hgate;
      }
      if (rb) {
        MLC_TRY(bz, take(rb, 0, 0, hidden));
        MLC_TRY(br, take(rb, 0, 1, hidden));
        MLC_TRY(bh, take(rb, 0, 2, hidden));
        rbz = bz;
        rbr = br;
        rbh = bh;
      }
    }
    if (kind == RecurrentKind::LSTM && n.hasInput(7)) {
      MLC_TRY(p, forDirection(n.input(7), d));
      MLC_TRY(pi0, take(p, 0, 0, hidden));
      MLC_TRY(po0, take(p, 0, 1, hidden));
      MLC_TRY(pf0, take(p, 0, 2, hidden));
      pi = pi0;
      po = po0;
      pf = pf0;
    }
    bool reverse = direction == "reverse" || d == 1;
    steps[d].assign(seq, Value());
    for (int64_t k = 0; k < seq; ++k) {
      int64_t t = reverse ? seq - 1 - k : k;
      MLC_TRY(xt0, take(xw3, 0, t, 1));
      MLC_TRY(xt, squeeze0(xt0));
      MLC_TRY(hr, binary<graph::MatMulOp>(n, h, recurrent));
      Value hNew, cNew;
      if (kind == RecurrentKind::RNN) {
        MLC_TRY(a, binary<graph::AddOp>(n, xt, hr));
        MLC_TRY(hn, unary<graph::TanhOp>(n, a));
        hNew = hn;
      } else if (kind == RecurrentKind::GRU) {
        MLC_TRY(xz, gate(xt, 0));
        MLC_TRY(xr, gate(xt, 1));
        MLC_TRY(xh, gate(xt, 2));
        MLC_TRY(hz, gate(hr, 0));
        MLC_TRY(hrr, gate(hr, 1));
        MLC_TRY(za, binary<graph::AddOp>(n, xz, hz));
        MLC_TRY(zb, plus(za, rbz));
        MLC_TRY(z, unary<graph::SigmoidOp>(n, zb));
        MLC_TRY(ra, binary<graph::AddOp>(n, xr, hrr));
        MLC_TRY(rbv, plus(ra, rbr));
        MLC_TRY(rg, unary<graph::SigmoidOp>(n, rbv));
        Value pre;
        if (lbr) {
          MLC_TRY(hh, gate(hr, 2));
          MLC_TRY(hhb, plus(hh, rbh));
          MLC_TRY(rhh, binary<graph::MulOp>(n, rg, hhb));
          MLC_TRY(p, binary<graph::AddOp>(n, xh, rhh));
          pre = p;
        } else {
          MLC_TRY(rgh, binary<graph::MulOp>(n, rg, h));
          MLC_TRY(m, binary<graph::MatMulOp>(n, rgh, rh));
          MLC_TRY(p, binary<graph::AddOp>(n, xh, m));
          pre = p;
        }
        MLC_TRY(ht, unary<graph::TanhOp>(n, pre));
        // (1 - z) * ht + z * h = ht + z * (h - ht)
        MLC_TRY(dh, binary<graph::SubOp>(n, h, ht));
        MLC_TRY(zdh, binary<graph::MulOp>(n, z, dh));
        MLC_TRY(hn, binary<graph::AddOp>(n, ht, zdh));
        hNew = hn;
      } else {
        MLC_TRY(a, binary<graph::AddOp>(n, xt, hr));
        MLC_TRY(gi0, gate(a, 0));
        MLC_TRY(go0, gate(a, 1));
        MLC_TRY(gf0, gate(a, 2));
        MLC_TRY(gc0, gate(a, 3));
        Value gi = gi0, gf = gf0, go = go0;
        if (pi) {
          // Input and forget gates peek at the old cell, the output gate
          // at the new one.
          MLC_TRY(pic, binary<graph::MulOp>(n, pi, c));
          MLC_TRY(pfc, binary<graph::MulOp>(n, pf, c));
          MLC_TRY(gi1, binary<graph::AddOp>(n, gi, pic));
          MLC_TRY(gf1, binary<graph::AddOp>(n, gf, pfc));
          gi = gi1;
          gf = gf1;
        }
        MLC_TRY(i, unary<graph::SigmoidOp>(n, gi));
        MLC_TRY(f, unary<graph::SigmoidOp>(n, gf));
        MLC_TRY(cc, unary<graph::TanhOp>(n, gc0));
        MLC_TRY(fc, binary<graph::MulOp>(n, f, c));
        MLC_TRY(ic, binary<graph::MulOp>(n, i, cc));
        MLC_TRY(cn, binary<graph::AddOp>(n, fc, ic));
        cNew = cn;
        if (po) {
          MLC_TRY(poc, binary<graph::MulOp>(n, po, cNew));
          MLC_TRY(go1, binary<graph::AddOp>(n, go, poc));
          go = go1;
        }
        MLC_TRY(o, unary<graph::SigmoidOp>(n, go));
        MLC_TRY(tc, unary<graph::TanhOp>(n, cNew));
        MLC_TRY(hn, binary<graph::MulOp>(n, o, tc));
        hNew = hn;
      }
      Value yt = hNew;
      if (lens64) {
        // Past a sequence's end: the state stays, the output is zero.
        Value tk = n.i64Constant({t}, {});
        MLC_TRY(live, compare(n, Pred::lt, tk, lens64));
        MLC_TRY(hk, select(n, live, hNew, h));
        MLC_TRY(yk, select(n, live, hNew, n.scalarLike(hNew, 0)));
        hNew = hk;
        yt = yk;
        if (cNew) {
          MLC_TRY(ck, select(n, live, cNew, c));
          cNew = ck;
        }
      }
      h = hNew;
      if (cNew)
        c = cNew;
      steps[d][t] = yt;
    }
    yh[d] = h;
    yc[d] = c;
  }
  // Y: [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]).
  if (n.wantsOutput(0)) {
    SmallVector<Value> perStep;
    for (int64_t t = 0; t < seq; ++t) {
      SmallVector<Value> perDir;
      for (int64_t d = 0; d < dirs; ++d) {
        MLC_TRY(v, reshape(n, steps[d][t], {1, 1, batch, hidden}));
        perDir.push_back(v);
      }
      MLC_TRY(cd, concat(n, perDir, 1));
      perStep.push_back(cd);
    }
    MLC_TRY(y, concat(n, perStep, 0));
    if (layout) {
      MLC_TRY(yt, transpose(n, y, {2, 0, 1, 3}));
      y = yt;
    }
    n.setOutput(0, y);
  }
  auto stackState = [&](ArrayRef<Value> states) -> FailureOr<Value> {
    SmallVector<Value> parts;
    for (Value v : states) {
      MLC_TRY(p, reshape(n, v, {1, batch, hidden}));
      parts.push_back(p);
    }
    MLC_TRY(st, concat(n, parts, 0));
    if (layout)
      return transpose(n, st, {1, 0, 2});
    return st;
  };
  if (n.wantsOutput(1)) {
    MLC_TRY(v, stackState(yh));
    n.setOutput(1, v);
  }
  if (kind == RecurrentKind::LSTM && n.wantsOutput(2)) {
    MLC_TRY(v, stackState(yc));
    n.setOutput(2, v);
  }
  return success();
}
LogicalResult convertRNN(N &n) {
  return convertRecurrent(n, RecurrentKind::RNN);
}
LogicalResult convertGRU(N &n) {
  return convertRecurrent(n, RecurrentKind::GRU);
}
LogicalResult convertLSTM(N &n) {
  return convertRecurrent(n, RecurrentKind::LSTM);
}

constexpr int64_t kMax = kMaxONNXOpset;

const OpConverter kConverters[] = {
    {"RNN", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,layout",
     convertRNN, "unrolled; default activations; no clip"},
    {"GRU", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,layout,linear_before_reset",
     convertGRU, "unrolled; default activations; no clip"},
    {"LSTM", 7, kMax, 3,
     "activation_alpha,activation_beta,activations,clip,direction,"
     "hidden_size,input_forget,layout",
     convertLSTM, "unrolled; default activations; no clip or input_forget"},
};

} // namespace

ArrayRef<OpConverter> getRecurrentConverters() { return kConverters; }

} // namespace mlc::frontend
