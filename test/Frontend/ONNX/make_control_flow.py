"""ONNX models with If, Loop and Scan for control-flow.test, with numpy
references for the ones that run. Usage: make_control_flow.py OUTDIR

  if_const      If on an initializer condition: only the else_branch is
                imported; the branch reads the outer value x.
  if_runtime    If on ReduceSum(x) > 0: both branches (different ops, an
                initializer inside one) and a select; inputs x_pos / x_neg
                take each branch.
  loop          Loop with trip count 4 and a condition that stays true:
                a carried value updated from an outer-scope weight, the
                iteration number used in the body, and a scan output.
  loop_cond     Loop without a trip count whose condition (iteration < 2,
                computed in the body) ends it after 3 iterations.
  scan          Scan (opset 11) summing rows of x forward and columns of z
                backward, one scan output stacked along axis 1 and another
                reversed.
  if_shapes     If on a run-time condition whose branches give [2] and [3]
                (refused).
  loop_runtime  Loop whose condition depends on the input (refused).
  sequences     (opset 17) SplitToSequence into uneven chunks, Identity,
                SequenceInsert at the front, SequenceErase of the last,
                SequenceAt, SequenceLength, SequenceMap with a sequence and a
                tensor input, ConcatFromSequence with and without new_axis,
                SequenceConstruct.
  seq_output    a sequence as the model's output (refused).
  seq_to_add    a sequence passed to Add (refused).
  if_unsorted   an If listed before the node producing the value its branch
                reads (ONNX wants sorted nodes; the importer sorts them,
                counting what subgraphs read).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
T = helper.make_tensor_value_info
node = helper.make_node


def save(name, nodes, inputs, outputs, inits=(), opset=13, check=True):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    if check:  # the malformed models are meant to fail the checker
        onnx.checker.check_model(m, full_check=True)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def npsave(name, v):
    np.save(os.path.join(out, name + ".npy"), np.array(v, order="C"))


def const(name, v):
    return node("Constant", [], [name], value=numpy_helper.from_array(v, name))


def graph(name, nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, list(inits))


# if_const: the condition is an initializer (false).
then_g = graph("then", [node("Relu", ["x"], ["t"])], [], [T("t", F, [2, 3])])
else_g = graph("else", [node("Neg", ["x"], ["e"])], [], [T("e", F, [2, 3])])
save("if_const", [node("If", ["c"], ["y"], then_branch=then_g,
                       else_branch=else_g)],
     [T("x", F, [2, 3])], [T("y", F, [2, 3])],
     [numpy_helper.from_array(np.array(False), "c")])

# if_runtime: cond = sum(x) > 0; then: x @ w (w an initializer of the
# branch) + 1; else: sigmoid(x) @ w2 (w2 from the outer graph).
w = rng.standard_normal((3, 4)).astype(np.float32)
w2 = rng.standard_normal((3, 4)).astype(np.float32)
then_g = graph("then", [node("MatMul", ["x", "w"], ["m"]),
                        const("one", np.float32(1)),
                        node("Add", ["m", "one"], ["t"])],
               [], [T("t", F, [2, 4])], [numpy_helper.from_array(w, "w")])
else_g = graph("else", [node("Sigmoid", ["x"], ["s"]),
                        node("MatMul", ["s", "w2"], ["e"])],
               [], [T("e", F, [2, 4])])
save("if_runtime",
     [node("ReduceSum", ["x"], ["sum"], keepdims=0),
      const("zero", np.float32(0)),
      node("Greater", ["sum", "zero"], ["c"]),
      node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
     [T("x", F, [2, 3])], [T("y", F, [2, 4])],
     [numpy_helper.from_array(w2, "w2")])
x_pos = np.abs(rng.standard_normal((2, 3))).astype(np.float32)
x_neg = -x_pos
npsave("x_pos", x_pos)
npsave("x_neg", x_neg)
npsave("y_pos", (x_pos.astype(np.float64) @ w + 1).astype(np.float32))
npsave("y_neg", ((1 / (1 + np.exp(-x_neg.astype(np.float64)))) @ w2)
       .astype(np.float32))

# loop: h = tanh(h @ wl + i * x); scan output h each iteration.
wl = (rng.standard_normal((3, 3)) * 0.5).astype(np.float32)
body = graph("body",
             [node("Identity", ["cond_in"], ["cond_out"]),
              node("MatMul", ["h_in", "wl"], ["hw"]),
              node("Cast", ["i"], ["fi"], to=F),
              node("Mul", ["fi", "x"], ["ix"]),
              node("Add", ["hw", "ix"], ["pre"]),
              node("Tanh", ["pre"], ["h_out"]),
              node("Identity", ["h_out"], ["scan"])],
             [T("i", I64, []), T("cond_in", B, []), T("h_in", F, [1, 3])],
             [T("cond_out", B, []), T("h_out", F, [1, 3]),
              T("scan", F, [1, 3])])
save("loop", [node("Loop", ["n", "c", "h0"], ["h", "hs"], body=body)],
     [T("x", F, [1, 3]), T("h0", F, [1, 3])],
     [T("h", F, [1, 3]), T("hs", F, [4, 1, 3])],
     [numpy_helper.from_array(wl, "wl"),
      numpy_helper.from_array(np.array(4, np.int64), "n"),
      numpy_helper.from_array(np.array(True), "c")])
x = rng.standard_normal((1, 3)).astype(np.float32)
h0 = rng.standard_normal((1, 3)).astype(np.float32)
npsave("loop_x", x)
npsave("loop_h0", h0)
h, hs = h0.astype(np.float64), []
for i in range(4):
    h = np.tanh(h @ wl + i * x)
    hs.append(h)
npsave("loop_h", h.astype(np.float32))
npsave("loop_hs", np.stack(hs).astype(np.float32))

# loop_cond: no trip count; acc *= 2 while the body's i < 2 (3 iterations).
body = graph("body",
             [const("two", np.int64(2)),
              node("Less", ["i", "two"], ["cond_out"]),
              const("twof", np.float32(2)),
              node("Mul", ["acc_in", "twof"], ["acc_out"])],
             [T("i", I64, []), T("cond_in", B, []), T("acc_in", F, [2])],
             [T("cond_out", B, []), T("acc_out", F, [2])])
save("loop_cond", [node("Loop", ["", "c", "acc0"], ["acc"], body=body)],
     [T("acc0", F, [2])], [T("acc", F, [2])],
     [numpy_helper.from_array(np.array(True), "c")])
acc0 = rng.standard_normal(2).astype(np.float32)
npsave("acc0", acc0)
npsave("acc", acc0 * 8)

# scan: running sums over rows of x (axis 0, forward) and over columns of z
# (axis 1, backward); outputs stacked along axis 1 and reversed.
body = graph("body",
             [node("Add", ["s_in", "row"], ["s_out"]),
              node("Add", ["r_in", "col"], ["r_out"]),
              node("Identity", ["s_out"], ["s_scan"]),
              node("Identity", ["r_out"], ["r_scan"])],
             [T("s_in", F, [3]), T("r_in", F, [4]), T("row", F, [3]),
              T("col", F, [4])],
             [T("s_out", F, [3]), T("r_out", F, [4]), T("s_scan", F, [3]),
              T("r_scan", F, [4])])
save("scan", [node("Scan", ["s0", "r0", "x", "z"], ["s", "r", "ss", "rs"],
                   body=body, num_scan_inputs=2, scan_input_axes=[0, 1],
                   scan_input_directions=[0, 1], scan_output_axes=[1, 0],
                   scan_output_directions=[0, 1])],
     [T("s0", F, [3]), T("r0", F, [4]), T("x", F, [5, 3]), T("z", F, [4, 5])],
     [T("s", F, [3]), T("r", F, [4]), T("ss", F, [3, 5]), T("rs", F, [5, 4])],
     opset=11)
s0, r0 = rng.standard_normal(3), rng.standard_normal(4)
xs, zs = rng.standard_normal((5, 3)), rng.standard_normal((4, 5))
for name, v in [("s0", s0), ("r0", r0), ("scan_x", xs), ("scan_z", zs)]:
    npsave(name, v.astype(np.float32))
ss = s0 + np.cumsum(xs, 0)               # step t: s0 + rows 0..t
rs = r0 + np.cumsum(zs[:, ::-1], 1).T    # step t: r0 + columns 4..4-t
npsave("scan_s", ss[-1].astype(np.float32))
npsave("scan_r", rs[-1].astype(np.float32))
npsave("scan_ss", ss.T.astype(np.float32))           # stacked on axis 1
npsave("scan_rs", rs[::-1].astype(np.float32))       # reversed

# if_shapes: branches of different shapes on a run-time condition.
then_g = graph("then", [const("t", np.zeros(2, np.float32))], [],
               [T("t", F, [2])])
else_g = graph("else", [const("e", np.zeros(3, np.float32))], [],
               [T("e", F, [3])])
save("if_shapes", [node("If", ["c"], ["y"], then_branch=then_g,
                         else_branch=else_g)],
     [T("c", B, [])], [T("y", F, [2])])

# loop_runtime: the body's condition compares with the input.
body = graph("body",
             [node("Less", ["acc_in", "limit"], ["cond_out"]),
              node("Add", ["acc_in", "acc_in"], ["acc_out"])],
             [T("i", I64, []), T("cond_in", B, []), T("acc_in", F, [])],
             [T("cond_out", B, []), T("acc_out", F, [])])
save("loop_runtime", [node("Loop", ["n", "", "one"], ["acc"], body=body)],
     [T("limit", F, [])], [T("acc", F, [])],
     [numpy_helper.from_array(np.array(10, np.int64), "n"),
      numpy_helper.from_array(np.array(1, np.float32), "one")])

# sequences: x [7, 2] split into chunks of 3 (3, 3, 1 rows).
seq_map_body = graph("map", [node("Mul", ["item", "scale"], ["scaled"]),
                             node("ReduceSum", ["scaled"], ["total"],
                                  keepdims=0)],
                     [T("item", F, None), T("scale", F, [2])],
                     [T("scaled", F, None), T("total", F, [])])
save("sequences",
     [const("three", np.int64(3)),
      node("SplitToSequence", ["x", "three"], ["chunks"], axis=0),
      node("Identity", ["chunks"], ["chunks2"]),
      const("zero", np.int64(0)),
      node("SequenceInsert", ["chunks2", "head", "zero"], ["ins"]),
      node("SequenceErase", ["ins"], ["erased"]),
      const("one", np.int64(1)),
      node("SequenceAt", ["erased", "one"], ["at1"]),
      node("SequenceLength", ["erased"], ["len"]),
      node("ConcatFromSequence", ["erased"], ["cat"], axis=0),
      node("SequenceMap", ["erased", "scale"], ["mapped", "totals"],
           body=seq_map_body),
      node("ConcatFromSequence", ["totals"], ["stacked"], axis=0,
           new_axis=1),
      node("SequenceConstruct", ["at1", "at1"], ["pair"]),
      node("ConcatFromSequence", ["pair"], ["pairs"], axis=-1, new_axis=1)],
     [T("x", F, [7, 2]), T("head", F, [2, 2]), T("scale", F, [2])],
     [T("cat", F, [8, 2]), T("at1", F, [3, 2]), T("len", I64, []),
      T("stacked", F, [3]), T("pairs", F, [3, 2, 2])], opset=17)
x = rng.standard_normal((7, 2)).astype(np.float32)
head = rng.standard_normal((2, 2)).astype(np.float32)
scale = rng.standard_normal(2).astype(np.float32)
for name, v in [("seq_x", x), ("seq_head", head), ("seq_scale", scale)]:
    npsave(name, v)
items = [head, x[0:3], x[3:6]]  # the last chunk (x[6:7]) erased
npsave("seq_cat", np.concatenate(items))
npsave("seq_at1", x[0:3])
npsave("seq_len", np.array(3, np.int64))
npsave("seq_stacked", np.array([(i.astype(np.float64) * scale).sum()
                                for i in items], np.float32))
npsave("seq_pairs", np.stack([x[0:3], x[0:3]], -1))

save("seq_output", [node("SequenceConstruct", ["x", "x"], ["s"])],
     [T("x", F, [2])], [helper.make_tensor_sequence_value_info("s", F, [2])])
save("seq_to_add", [node("SequenceConstruct", ["x"], ["s"]),
                    node("Add", ["s", "x"], ["y"])],
     [T("x", F, [2])], [T("y", F, [2])], check=False)

then_g = graph("then", [node("Identity", ["r"], ["t"])], [], [T("t", F, [3])])
else_g = graph("else", [node("Neg", ["r"], ["e"])], [], [T("e", F, [3])])
save("if_unsorted", [node("If", ["c"], ["y"], then_branch=then_g,
                          else_branch=else_g),
                     node("Relu", ["x"], ["r"])],
     [T("x", F, [3]), T("c", B, [])], [T("y", F, [3])], check=False)
xu = rng.standard_normal(3).astype(np.float32)
npsave("unsorted_x", xu)
npsave("unsorted_c", np.array(False))
npsave("unsorted_y", -np.maximum(xu, 0))
