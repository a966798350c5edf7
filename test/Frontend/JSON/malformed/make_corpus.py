#!/usr/bin/python3
"""Writes the malformed-model corpus and its lit test.

Each case is one small model file <case>.json (plus, for weights-file cases,
a tiny <case>.safetensors) that mlc-compile must reject with the given JSON
path and message. The table below is the single source of truth: this script
writes the files next to itself and ../malformed.test from it. Re-run it
after editing the table (output is deterministic):

  /usr/bin/python3 test/Frontend/JSON/malformed/make_corpus.py

The cases in IMPORTER_CASES are shape/dtype errors that only the importer
finds (each op's shape inference); their messages are the graph dialect's,
so update them here if those change.
"""

import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
LIT = os.path.join(os.path.dirname(HERE), "malformed.test")


def model(nodes=None, inputs=None, outputs=None, weights=None, **top):
    """A compact model.json text; keys appear in the usual order."""
    m = {"version": 1}
    m.update(top)
    m["inputs"] = inputs if inputs is not None else [
        {"name": "x", "dtype": "f32", "shape": [2, 3]}]
    m["outputs"] = outputs if outputs is not None else ["y"]
    if weights is not None:
        m["weights"] = weights
    m["nodes"] = nodes if nodes is not None else [
        {"op": "relu", "inputs": ["x"], "outputs": ["y"]}]
    return json.dumps(m, indent=1) + "\n"


def relu(inp="x", out="y", **kw):
    n = {"op": "relu", "inputs": [inp], "outputs": [out]}
    n.update(kw)
    return n


def tensor(name, dtype, shape, **kw):
    t = {"name": name, "dtype": dtype, "shape": shape}
    t.update(kw)
    return t


def safetensors(entries):
    """entries: (name, dtype, shape, raw bytes). Header padded to 8."""
    header, data = {}, b""
    for name, dtype, shape, raw in entries:
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % 8)
    return struct.pack("<Q", len(text)) + text + data


F32_2 = struct.pack("<2f", 1.5, -2.0)


def st_model(name):
    """A model whose weight 'w' [2] f32 comes from <name>.safetensors."""
    return model(weights_file=name + ".safetensors",
                 weights=[tensor("w", "f32", [2])],
                 nodes=[{"op": "add", "inputs": ["x", "w"],
                         "outputs": ["y"]}],
                 inputs=[tensor("x", "f32", [3, 2])])


WEIGHTS_FILE_ERR = "weights file '%s.safetensors' "

# (case, json text, extra files {suffix: bytes}, json path, message)
CASES = [
    ("empty", "", {}, "", "file is empty"),
    ("whitespace", "  \n\n", {}, "", "file is empty"),
    ("truncated", '{"version": 1, "inputs": [{"name": "x", "dtype": "f3',
     {}, "", "invalid JSON: parse error at line 1, column 53: syntax error "
     "while parsing value - invalid string: missing closing quote; last "
     "read: '\"f3'"),
    ("not_json", "version = 1\n", {}, "",
     "invalid JSON: parse error at line 1, column 1: syntax error while "
     "parsing value - invalid literal; last read: 'v'"),
    ("trailing_garbage", model() + "}\n", {}, "",
     "invalid JSON: parse error at line 28, column 1: syntax error while "
     "parsing value - unexpected '}'; expected end of input"),
    ("deeply_nested", "[" * 100 + "]" * 100 + "\n", {}, "",
     "nesting deeper than 64 levels at line 1, column 65"),
    ("not_object", "[1, 2, 3]\n", {}, "", "expected an object"),
    ("version_missing",
     '{"inputs": [], "outputs": ["x"], "nodes": []}\n', {}, "",
     "missing required key 'version'"),
    ("version_wrong", model().replace('"version": 1', '"version": 2'), {},
     "version", "unsupported version 2 (expected 1)"),
    ("version_string", model().replace('"version": 1', '"version": "1"'), {},
     "version", "expected an integer"),
    ("unknown_top_key", model(weigths=[]), {}, "weigths",
     "unknown key 'weigths'"),
    ("duplicate_key", model().replace('"version": 1,',
                                      '"version": 1,\n "nodes": [],'), {},
     "nodes", "duplicate key 'nodes'"),
    ("missing_nodes", '{"version": 1, "inputs": [], "outputs": ["x"]}\n', {},
     "", "missing required key 'nodes'"),
    ("unknown_op", model(nodes=[{"op": "relu6", "inputs": ["x"],
                                 "outputs": ["y"]}]), {},
     "nodes[0].op", "unknown op 'relu6'"),
    ("unknown_attr", model(nodes=[relu(attrs={"inplace": True})]), {},
     "nodes[0].attrs.inplace", "unknown attribute 'inplace' for op 'relu'"),
    ("attr_wrong_type",
     model(inputs=[tensor("x", "f32", [1, 1, 4, 4])],
           nodes=[{"op": "maxpool2d", "inputs": ["x"], "outputs": ["y"],
                   "attrs": {"kernel": [2, 2], "strides": 2}}]), {},
     "nodes[0].attrs.strides", "expected a list of 2 integers"),
    ("attr_bad_value",
     model(inputs=[tensor("x", "f32", [1, 1, 4, 4])],
           nodes=[{"op": "maxpool2d", "inputs": ["x"], "outputs": ["y"],
                   "attrs": {"kernel": [2, 0]}}]), {},
     "nodes[0].attrs.kernel[1]", "expected a positive integer, got 0"),
    ("attr_missing",
     model(nodes=[{"op": "reshape", "inputs": ["x"], "outputs": ["y"]}]), {},
     "nodes[0]", "missing required attribute 'shape' for op 'reshape'"),
    ("attr_bad_choice",
     model(nodes=[{"op": "compare", "inputs": ["x", "x"], "outputs": ["y"],
                   "attrs": {"predicate": "less"}}]), {},
     "nodes[0].attrs.predicate",
     "unknown predicate 'less' (expected eq, ne, lt, le, gt or ge)"),
    ("wrong_arity",
     model(nodes=[{"op": "add", "inputs": ["x", "x", "x"],
                   "outputs": ["y"]}]), {},
     "nodes[0].inputs", "op 'add' expects 2 inputs, got 3"),
    ("two_outputs", model(nodes=[{"op": "relu", "inputs": ["x"],
                                  "outputs": ["y", "z"]}]), {},
     "nodes[0].outputs", "expected exactly one output, got 2"),
    ("unknown_value",
     model(nodes=[relu(out="h1"),
                  {"op": "add", "inputs": ["h1", "h2"], "outputs": ["y"]}]),
     {}, "nodes[1].inputs[1]", "unknown value 'h2'"),
    ("duplicate_name",
     model(nodes=[relu(out="y"), {"op": "neg", "inputs": ["x"],
                                  "outputs": ["y"]}]), {},
     "nodes[1].outputs[0]",
     "duplicate name 'y' (also defined at nodes[0].outputs[0])"),
    ("duplicate_input_weight",
     model(weights=[tensor("x", "f32", [1], data=[0])]), {},
     "weights[0].name", "duplicate name 'x' (also defined at inputs[0].name)"),
    ("cycle",
     model(nodes=[relu("b_out", "a_out", name="a"),
                  relu("a_out", "b_out", name="b"), relu("x", "y")]), {},
     "nodes[0]",
     "cycle: node 'a' (nodes[0]) -> node 'b' (nodes[1]) -> node 'a'"),
    ("self_cycle", model(nodes=[{"op": "add", "inputs": ["x", "y"],
                                 "outputs": ["y"]}]), {},
     "nodes[0]", "cycle: node 'y' (nodes[0]) -> node 'y'"),
    ("dim_zero", model(inputs=[tensor("x", "f32", [2, 0])]), {},
     "inputs[0].shape[1]", "dimension 0 out of range [1, 2^31)"),
    ("dim_negative", model(inputs=[tensor("x", "f32", [-1, 3])]), {},
     "inputs[0].shape[0]", "dimension -1 out of range [1, 2^31)"),
    ("dim_huge", model(inputs=[tensor("x", "f32", [1 << 40])]), {},
     "inputs[0].shape[0]", "dimension 1099511627776 out of range [1, 2^31)"),
    ("dim_float", model(inputs=[tensor("x", "f32", [2.0, 3])]), {},
     "inputs[0].shape[0]", "expected an integer"),
    ("too_many_elements",
     model(inputs=[tensor("x", "f32", [65536, 65536])]), {},
     "inputs[0].shape", "element count exceeds 2^31"),
    ("rank_too_high", model(inputs=[tensor("x", "f32", [1] * 9)]), {},
     "inputs[0].shape", "rank 9 exceeds the limit of 8"),
    ("bad_dtype", model(inputs=[tensor("x", "f16", [2, 3])]), {},
     "inputs[0].dtype", "unknown dtype 'f16' (expected f32, i64, i32 or bool)"),
    ("inline_wrong_length",
     model(weights=[tensor("w", "f32", [2, 2], data=[1, 2, 3])]), {},
     "weights[0].data", "inline data has 3 elements, expected 4"),
    ("inline_wrong_type",
     model(weights=[tensor("w", "i32", [2], data=[1, 2.5])]), {},
     "weights[0].data[1]", "expected an integer"),
    ("inline_i32_range",
     model(weights=[tensor("w", "i32", [1], data=[1 << 31])]), {},
     "weights[0].data[0]", "value 2147483648 out of range for i32"),
    ("no_weight_data", model(weights=[tensor("w", "f32", [2])]), {},
     "weights[0]", "weight 'w' has no inline data and there is no "
     "weights_file"),
    ("weights_file_missing",
     model(weights_file="nowhere.safetensors",
           weights=[tensor("w", "f32", [2])]), {},
     "weights_file", "cannot open weights file 'nowhere.safetensors': No "
     "such file or directory"),
    ("st_truncated", st_model("st_truncated"),
     {".safetensors": safetensors([("w", "F32", [2], F32_2)])[:-3]},
     "weights_file", WEIGHTS_FILE_ERR % "st_truncated" +
     "is truncated: tensor 'w' ends at data byte 8 but the data section has "
     "5 bytes"),
    ("st_header_truncated", st_model("st_header_truncated"),
     {".safetensors": safetensors([("w", "F32", [2], F32_2)])[:30]},
     "weights_file", WEIGHTS_FILE_ERR % "st_header_truncated" +
     "is truncated: header of 56 bytes but only 22 bytes follow"),
    ("st_bad_header", st_model("st_bad_header"),
     {".safetensors": struct.pack("<Q", 8) + b"not json"},
     "weights_file", WEIGHTS_FILE_ERR % "st_bad_header" +
     "is malformed: header is not valid JSON (parse error at line 1, column "
     "2: syntax error while parsing value - invalid literal; last read: "
     "'no')"),
    ("st_wrong_dtype", st_model("st_wrong_dtype"),
     {".safetensors": safetensors([("w", "I32", [2], F32_2)])},
     "weights[0].dtype", "dtype mismatch for 'w': weights file "
     "'st_wrong_dtype.safetensors' has I32, model says f32"),
    ("st_wrong_shape", st_model("st_wrong_shape"),
     {".safetensors": safetensors([("w", "F32", [1, 2], F32_2)])},
     "weights[0].shape", "shape mismatch for 'w': weights file "
     "'st_wrong_shape.safetensors' has [1, 2], model says [2]"),
    ("st_missing_tensor", st_model("st_missing_tensor"),
     {".safetensors": safetensors([("v", "F32", [2], F32_2)])},
     "weights[0]", "'w' not found in weights file "
     "'st_missing_tensor.safetensors'"),
    ("outputs_empty", model(outputs=[]), {}, "outputs",
     "expected at least one output"),
    ("outputs_unknown", model(outputs=["y", "logits"]), {}, "outputs[1]",
     "unknown value 'logits'"),
    # Found by op shape inference in the importer (IMPORTER_CASES).
    ("matmul_k_mismatch",
     model(inputs=[tensor("a", "f32", [2, 3]), tensor("b", "f32", [4, 5])],
           nodes=[{"op": "matmul", "inputs": ["a", "b"], "outputs": ["y"]}]),
     {}, "nodes[0] (matmul)", "matmul contraction dimensions differ: lhs "
     "tensor<2x3xf32> has K = 3 but rhs tensor<4x5xf32> has K = 4"),
    ("add_not_broadcastable",
     model(inputs=[tensor("a", "f32", [2, 3]), tensor("b", "f32", [2, 4])],
           nodes=[{"op": "add", "inputs": ["a", "b"], "outputs": ["y"]}]),
     {}, "nodes[0] (add)", "operands are not broadcast-compatible: "
     "tensor<2x3xf32>, tensor<2x4xf32>"),
    ("add_dtype_mismatch",
     model(inputs=[tensor("a", "f32", [2, 3]), tensor("b", "i64", [2, 3])],
           nodes=[{"op": "add", "inputs": ["a", "b"], "outputs": ["y"]}]),
     {}, "nodes[0] (add)",
     "operands must have the same element type, got f32 and i64"),
    ("conv_channel_mismatch",
     model(inputs=[tensor("x", "f32", [1, 3, 8, 8]),
                   tensor("w", "f32", [4, 2, 3, 3])],
           nodes=[{"op": "conv2d", "inputs": ["x", "w"], "outputs": ["y"]}]),
     {}, "nodes[0] (conv2d)", "filter tensor<4x2x3x3xf32> expects 2 input "
     "channels but the input tensor<1x3x8x8xf32> has 3"),
    # 1-D and 3-D window ops: built from the 2-D ones (WindowBuilders.cpp),
    # which check what the decomposition needs.
    ("conv3d_channel_mismatch",
     model(inputs=[tensor("x", "f32", [1, 3, 4, 8, 8]),
                   tensor("w", "f32", [4, 2, 3, 3, 3])],
           nodes=[{"op": "conv3d", "inputs": ["x", "w"], "outputs": ["y"]}]),
     {}, "nodes[0] (conv3d)",
     "input has 3 channels but the filter expects 2 per group of 1"),
    ("conv3d_kernel_too_deep",
     model(inputs=[tensor("x", "f32", [1, 2, 2, 8, 8]),
                   tensor("w", "f32", [4, 2, 3, 3, 3])],
           nodes=[{"op": "conv3d", "inputs": ["x", "w"], "outputs": ["y"]}]),
     {}, "nodes[0] (conv3d)",
     "the kernel's depth 3 exceeds the padded input's 2"),
    ("conv1d_input_rank",
     model(inputs=[tensor("x", "f32", [1, 2, 8, 8]),
                   tensor("w", "f32", [4, 2, 3])],
           nodes=[{"op": "conv1d", "inputs": ["x", "w"], "outputs": ["y"]}]),
     {}, "nodes[0].inputs[0]",
     "conv1d needs an input of rank 3 ([N, C, W]), got rank 4"),
    ("conv_transpose2d_bias_shape",
     model(inputs=[tensor("x", "f32", [1, 2, 4, 4]),
                   tensor("w", "f32", [2, 3, 2, 2]),
                   tensor("b", "f32", [2])],
           nodes=[{"op": "conv_transpose2d", "inputs": ["x", "w", "b"],
                   "outputs": ["y"], "attrs": {"strides": [2, 2]}}]),
     {}, "nodes[0] (conv_transpose2d)", "bias must have shape [3]"),
    ("conv_transpose1d_crops_all",
     model(inputs=[tensor("x", "f32", [1, 2, 2]),
                   tensor("w", "f32", [2, 3, 2])],
           nodes=[{"op": "conv_transpose1d", "inputs": ["x", "w"],
                   "outputs": ["y"], "attrs": {"pads": [2, 1]}}]),
     {}, "nodes[0] (conv_transpose1d)",
     "padding that removes the whole output (spatial dim 0)"),
    ("maxpool3d_pads_length",
     model(inputs=[tensor("x", "f32", [1, 2, 4, 4, 4])],
           nodes=[{"op": "maxpool3d", "inputs": ["x"], "outputs": ["y"],
                   "attrs": {"kernel": [2, 2, 2], "pads": [1, 1, 1, 1]}}]),
     {}, "nodes[0].attrs.pads", "expected a list of 6 integers"),
    ("reshape_count_mismatch",
     model(nodes=[{"op": "reshape", "inputs": ["x"], "outputs": ["y"],
                   "attrs": {"shape": [4, 2]}}]),
     {}, "nodes[0] (reshape)", "cannot reshape tensor<2x3xf32> (6 elements) "
     "to [4,2] (8 elements)"),
]

# The training section (docs/training.md). Every case compiles with
# --train, except those in PLAIN_TRAINING_CASES.
def mlp(training, **kw):
    """x [2, 3] -> matmul w [3, 4] + b [4] -> logits, with `training`."""
    m = dict(inputs=[tensor("x", "f32", [2, 3])], outputs=["logits"],
             weights=[tensor("w", "f32", [3, 4], data=[0.5] * 12),
                      tensor("b", "f32", [4], data=[0.0] * 4)],
             nodes=[{"op": "matmul", "inputs": ["x", "w"], "outputs": ["h"]},
                    {"op": "add", "inputs": ["h", "b"],
                     "outputs": ["logits"]}],
             training=training)
    m.update(kw)
    return model(**m)


def train(**changes):
    """A valid training section with `changes` (None deletes a key)."""
    t = {"batch_size": 4,
         "loss": {"type": "softmax_cross_entropy", "output": "logits",
                  "labels": "label"},
         "optimizer": {"type": "sgd", "lr": 0.1}}
    for k, v in changes.items():
        if v is None:
            del t[k]
        else:
            t[k] = v
    return t


SCE = {"type": "softmax_cross_entropy", "output": "logits", "labels": "label"}
TRAINING_CASES = [
    ("training_not_object", mlp([]), {}, "training", "expected an object"),
    ("training_unknown_key", mlp(train(epochs=3)), {}, "training.epochs",
     "unknown key 'epochs'"),
    ("training_batch_missing", mlp(train(batch_size=None)), {}, "training",
     "missing required key 'batch_size'"),
    ("training_batch_zero", mlp(train(batch_size=0)), {},
     "training.batch_size", "batch_size must be in [1, 2^31)"),
    ("training_loss_unknown", mlp(train(loss=dict(SCE, type="hinge"))), {},
     "training.loss.type",
     "unknown loss 'hinge' (expected softmax_cross_entropy or mse)"),
    ("training_loss_output_unknown",
     mlp(train(loss=dict(SCE, output="probs"))), {}, "training.loss.output",
     "unknown value 'probs'"),
    ("training_labels_clash", mlp(train(loss=dict(SCE, labels="x"))), {},
     "training.loss.labels", "'x' is already a value of the model; the "
     "labels input needs a new name"),
    ("training_mse_labels_key",
     mlp(train(loss={"type": "mse", "output": "logits", "labels": "t"})), {},
     "training.loss.labels", "unknown key 'labels'"),
    ("training_optimizer_unknown",
     mlp(train(optimizer={"type": "rmsprop", "lr": 0.1})), {},
     "training.optimizer.type",
     "unknown optimizer 'rmsprop' (expected sgd or adam)"),
    ("training_lr_missing", mlp(train(optimizer={"type": "sgd"})), {},
     "training.optimizer", "missing required key 'lr'"),
    ("training_lr_negative",
     mlp(train(optimizer={"type": "sgd", "lr": -0.1})), {},
     "training.optimizer.lr", "lr must be in [1e-30, inf), got -0.1"),
    ("training_momentum_range",
     mlp(train(optimizer={"type": "sgd", "lr": 0.1, "momentum": 1.5})), {},
     "training.optimizer.momentum", "momentum must be in [0, 1), got 1.5"),
    ("training_adam_momentum",
     mlp(train(optimizer={"type": "adam", "lr": 0.1, "momentum": 0.9})), {},
     "training.optimizer.momentum", "unknown key 'momentum'"),
    ("training_nesterov_no_momentum",
     mlp(train(optimizer={"type": "sgd", "lr": 0.1, "nesterov": True})), {},
     "training.optimizer.nesterov", "nesterov needs a momentum > 0"),
    ("training_init_method", mlp(train(init={"method": "xavier"})), {},
     "training.init.method",
     "unknown init method 'xavier' (expected weights or random)"),
    ("training_seed_with_weights",
     mlp(train(init={"method": "weights", "seed": 1})), {},
     "training.init.seed", "seed applies to method random only"),
    ("training_trainable_unknown", mlp(train(trainable=["nope"])), {},
     "training.trainable[0]", "'nope' is not a weight of the model"),
    ("training_trainable_twice", mlp(train(trainable=["w", "w"])), {},
     "training.trainable[1]", "'w' is listed twice"),
    ("training_trainable_int",
     mlp(train(trainable=["k"]),
         weights=[tensor("w", "f32", [3, 4], data=[0.5] * 12),
                  tensor("b", "f32", [4], data=[0.0] * 4),
                  tensor("k", "i64", [1], data=[1])]), {},
     "training.trainable[0]",
     "weight 'k' is not f32; only f32 weights can be trained"),
    ("training_output_not_returned",
     mlp(train(loss=dict(SCE, output="h"))), {}, "training.loss.output",
     "'h' is not one of the model's outputs"),
    # Found when the train step is built.
    ("training_no_section", model(), {}, "",
     "the model has no 'training' section (see docs/training.md)"),
    ("training_sce_rank",
     mlp(train(), inputs=[tensor("x", "f32", [2, 5, 3])]), {},
     "training.loss.output", "softmax_cross_entropy needs logits of rank 2 "
     "[batch, classes], got 'tensor<4x5x4xf32>'"),
    ("training_no_f32_weight",
     model(inputs=[tensor("x", "f32", [2, 3])], outputs=["logits"],
           nodes=[relu("x", "logits")], training=train()), {}, "training",
     "the model has no f32 weight to train"),
    ("training_scalar_input",
     mlp(train(loss={"type": "mse", "output": "logits", "target": "t"}),
         inputs=[tensor("x", "f32", [])],
         nodes=[{"op": "mul", "inputs": ["x", "b"],
                 "outputs": ["logits"]}]), {}, "inputs[0]",
     "input 'x' is a scalar: training needs a batch dimension"),
    ("training_int_output",
     mlp(train(loss={"type": "mse", "output": "logits", "target": "t"}),
         nodes=[{"op": "matmul", "inputs": ["x", "w"], "outputs": ["h"]},
                {"op": "cast", "inputs": ["h"], "outputs": ["logits"],
                 "attrs": {"to": "i64"}}]), {}, "training.loss.output",
     "the loss needs a float output, got 'tensor<4x4xi64>'"),
    ("training_fixed_batch_reshape",
     mlp(train(), inputs=[tensor("x", "f32", [2, 3])],
         nodes=[{"op": "reshape", "inputs": ["x"], "outputs": ["f"],
                 "attrs": {"shape": [2, 3]}},
                {"op": "matmul", "inputs": ["f", "w"], "outputs": ["h"]},
                {"op": "add", "inputs": ["h", "b"], "outputs": ["logits"]}]),
     {}, "nodes[0] (reshape)",
     "cannot reshape tensor<4x3xf32> (12 elements) to [2,3] (6 elements)"),
    ("training_random_without_data_plain",
     mlp(train(init={"method": "random", "seed": 1}),
         weights=[tensor("w", "f32", [3, 4]), tensor("b", "f32", [4])]), {},
     "weights[0]", "weight 'w' has no data (only weights trained by "
     "mlc-compile --train with random init may omit it)"),
]
PLAIN_TRAINING_CASES = {"training_random_without_data_plain"}
CASES += TRAINING_CASES
TRAIN_FLAG = {c[0] for c in TRAINING_CASES} - PLAIN_TRAINING_CASES

IMPORTER_CASES = {"matmul_k_mismatch", "add_not_broadcastable",
                  "add_dtype_mismatch", "conv_channel_mismatch",
                  "reshape_count_mismatch", "conv3d_channel_mismatch",
                  "conv3d_kernel_too_deep", "conv1d_input_rank",
                  "conv_transpose2d_bias_shape",
                  "conv_transpose1d_crops_all"}


def prefix(case):
    return case.upper()


def lit_test():
    out = [
        "; Malformed models: mlc-compile must name the file and JSON path,",
        "; fail, and leave no output behind.",
        "; GENERATED by malformed/make_corpus.py from its CASES table; edit",
        "; the table and re-run the script instead of editing this file.",
        ";",
        "; RUN: rm -f %t.so",
    ]
    for case, _, _, path, message in CASES:
        p = prefix(case)
        out.append("")
        flag = " --train" if case in TRAIN_FLAG else ""
        out.append("; RUN: not mlc-compile%s %%S/malformed/%s.json -o %%t.so "
                   "2>&1 | FileCheck %%s --check-prefix=%s" % (flag, case, p))
        out.append("; RUN: test ! -e %t.so")
        # An empty JSON path may be printed as "file: error:" or
        # "file: : error:".
        where = "{{.*}}%s.json:" % case
        where += " %s:" % path if path else "{{( :)?}}"
        assert "[[" not in message and "{{" not in message
        out.append("; %s: %s error: %s" % (p, where, message))
    return "\n".join(out) + "\n"


def main():
    keep = {"make_corpus.py"}
    for case, text, extra, _, _ in CASES:
        name = case + ".json"
        keep.add(name)
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        for suffix, data in extra.items():
            keep.add(case + suffix)
            with open(os.path.join(HERE, case + suffix), "wb") as f:
                f.write(data)
    # Drop files of cases that were removed from the table.
    for name in os.listdir(HERE):
        if name not in keep and name.endswith((".json", ".safetensors")):
            os.remove(os.path.join(HERE, name))
    with open(LIT, "w") as f:
        f.write(lit_test())
    # For scripts that check the expectations against a parser directly.
    if os.environ.get("MLC_CORPUS_EXPECTATIONS"):
        with open(os.environ["MLC_CORPUS_EXPECTATIONS"], "w") as f:
            for case, _, _, path, message in CASES:
                if case not in IMPORTER_CASES:
                    f.write("%s.json\t%s\t%s\n" % (case, path, message))


if __name__ == "__main__":
    main()
