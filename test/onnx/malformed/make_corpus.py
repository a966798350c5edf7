#!/usr/bin/python3
"""Writes malformed ONNX models for the importer's error tests.

  make_corpus.py OUTDIR [case...]

writes OUTDIR/<case>.onnx for each case (all of them when none is named),
plus the external data files two cases refer to. Every model is built with
onnx.helper (never checked: most would fail onnx.checker) or written as raw
bytes; each test in this directory compiles one and checks the message.
"""

import os
import random
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13


def model(nodes, inputs, outputs, initializers=(), opset=OPSET):
    graph = helper.make_graph(nodes, "g", inputs, outputs,
                              initializer=list(initializers))
    return helper.make_model(graph, producer_name="mlc-malformed",
                             opset_imports=[helper.make_opsetid("", opset)])


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def relu_model(shape=(2, 3)):
    return model([helper.make_node("Relu", ["x"], ["y"], name="r0")],
                 [f32("x", list(shape))], [f32("y", list(shape))])


def valid_model():
    """A valid model with a 16x16 weight, so a cut lands inside its data."""
    w = numpy_helper.from_array(
        np.arange(256, dtype=np.float32).reshape(16, 16), "W")
    return model([helper.make_node("MatMul", ["x", "W"], ["y"], name="mm0")],
                 [f32("x", [1, 16])], [f32("y", [1, 16])], [w])


def must_not_parse(data, what):
    try:
        onnx.ModelProto().ParseFromString(data)
    except Exception:
        return data
    sys.exit("make_corpus.py: %s unexpectedly parses" % what)


# --- cases: each returns a ModelProto or bytes ----------------------------

def empty():
    return b""


def truncated():
    data = valid_model().SerializeToString()
    cut = len(data) // 2
    # A cut at a field boundary would still parse: step back until it fails.
    while True:
        try:
            onnx.ModelProto().ParseFromString(data[:cut])
            cut -= 1
        except Exception:
            return data[:cut]


def random_bytes():
    rng = random.Random(1234)
    return must_not_parse(bytes(rng.randrange(256) for _ in range(512)),
                          "random bytes")


def initializer_size():
    # dims [2, 3] of float need 24 bytes; raw_data holds 20.
    w = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[2, 3],
                    raw_data=b"\0" * 20)
    return model([helper.make_node("Add", ["x", "W"], ["y"], name="add0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])], [w])


def initializer_no_data():
    w = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[2, 3])
    return model([helper.make_node("Add", ["x", "W"], ["y"], name="add0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])], [w])


def dangling_input():
    return model([helper.make_node("Add", ["x", "ghost"], ["y"], name="add0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])])


def mutual_inputs():
    """A cycle (named so that the file name does not say "cycle")."""
    return model([helper.make_node("Add", ["x", "b"], ["a"], name="n0"),
                  helper.make_node("Relu", ["a"], ["b"], name="n1")],
                 [f32("x", [2, 3])], [f32("a", [2, 3])])


def shape_mismatch():
    return model([helper.make_node("Add", ["a", "b"], ["y"], name="add0")],
                 [f32("a", [2, 3]), f32("b", [4, 5])], [f32("y", [2, 3])])


def absurd_dims():
    return relu_model((1000000, 1000000, 1000000))


def negative_dim():
    return relu_model((-3, 2))


def unknown_op():
    return model([helper.make_node("FooBar", ["x"], ["y"], name="n0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])])


def opset_99():
    m = relu_model()
    m.opset_import[0].version = 99
    return m


def no_default_opset():
    m = relu_model()
    m.opset_import[0].domain = "ai.onnx.ml"
    m.opset_import[0].version = 3
    return m


def no_outputs():
    return model([helper.make_node("Relu", ["x"], ["y"], name="r0")],
                 [f32("x", [2, 3])], [])


def constant_no_value():
    return model([helper.make_node("Constant", [], ["c"], name="c0"),
                  helper.make_node("Add", ["x", "c"], ["y"], name="add0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])])


def relu_no_inputs():
    return model([helper.make_node("Relu", [], ["y"], name="r0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])])


def reshape_runtime_shape():
    return model(
        [helper.make_node("Reshape", ["data", "shape"], ["y"], name="reshape0")],
        [f32("data", [2, 3]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [f32("y", [3, 2])])


def dynamic_dim():
    return relu_model(("N", 3))


def _external(location, offset, length):
    w = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[2, 3],
                    data_location=TensorProto.EXTERNAL)
    for k, v in (("location", location), ("offset", str(offset)),
                 ("length", str(length))):
        entry = w.external_data.add()
        entry.key, entry.value = k, v
    return model([helper.make_node("Add", ["x", "W"], ["y"], name="add0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3])], [w])


def external_missing_file():
    return _external("missing_weights.bin", 0, 24)


def external_offset():
    # external_offset.bin (written below) holds 32 bytes; the tensor's 24
    # bytes are said to start at 1024.
    return _external("external_offset.bin", 1024, 24)


def output_unproduced():
    return model([helper.make_node("Relu", ["x"], ["y"], name="r0")],
                 [f32("x", [2, 3])], [f32("y", [2, 3]), f32("nowhere", [2, 3])])


def duplicate_names():
    # The graph input is 'in0', so "'x'" in a message means the duplicate.
    return model([helper.make_node("Relu", ["in0"], ["x"], name="r0"),
                  helper.make_node("Neg", ["in0"], ["x"], name="r1"),
                  helper.make_node("Add", ["x", "x"], ["y"], name="add0")],
                 [f32("in0", [2, 3])], [f32("y", [2, 3])])


def string_input():
    return model([helper.make_node("Identity", ["s"], ["y"], name="id0")],
                 [helper.make_tensor_value_info("s", TensorProto.STRING, [2])],
                 [helper.make_tensor_value_info("y", TensorProto.STRING, [2])])


def conv_transpose_huge_strides():
    """Strides of 2^62: the output size would overflow int64."""
    w = numpy_helper.from_array(np.ones((3, 2, 2, 2), np.float32), "W")
    node = helper.make_node("ConvTranspose", ["x", "W"], ["y"], name="up0",
                            strides=[1 << 62, 2])
    return model([node], [f32("x", [1, 3, 4, 4])], [f32("y", [1, 2, 8, 8])],
                 [w])


def conv_huge_pads():
    """Pads of 2^62 on a convolution."""
    w = numpy_helper.from_array(np.ones((2, 3, 3, 3), np.float32), "W")
    node = helper.make_node("Conv", ["x", "W"], ["y"], name="conv0",
                            pads=[1 << 62, 0, 1 << 62, 0])
    return model([node], [f32("x", [1, 3, 4, 4])], [f32("y", [1, 2, 2, 2])],
                 [w])


def constant_huge_dims():
    """A Constant whose dims claim 2^40 elements and whose float_data holds
    3: found by scripts/fuzz-onnx.py (the importer reserved 4 TB first)."""
    t = onnx.TensorProto(name="c", data_type=TensorProto.FLOAT,
                         dims=[1 << 40], float_data=[1.0, 2.0, 3.0])
    nodes = [helper.make_node("Constant", [], ["c"], name="const0", value=t),
             helper.make_node("Add", ["x", "c"], ["y"], name="add0")]
    return model(nodes, [f32("x", [3])], [f32("y", [3])])


def einsum_missing_input():
    """An Einsum whose second operand is omitted (an empty name): found by
    scripts/fuzz-onnx.py (a null operand reached the converter)."""
    node = helper.make_node("Einsum", ["x", ""], ["y"], name="ein0",
                            equation="i,i")
    return model([node], [f32("x", [5])], [f32("y", [])], opset=12)


def lstm_huge_hidden():
    """An LSTM with hidden_size 2^62: found by scripts/fuzz-onnx.py under
    UBSan (4 gates * hidden_size overflowed)."""
    node = helper.make_node("LSTM", ["x", "W", "R"], ["y"], name="lstm0",
                            hidden_size=1 << 62)
    w = numpy_helper.from_array(np.ones((1, 12, 2), np.float32), "W")
    r = numpy_helper.from_array(np.ones((1, 12, 3), np.float32), "R")
    return model([node], [f32("x", [4, 1, 2])], [f32("y", [4, 1, 1, 3])],
                 [w, r])


CASES = {
    "empty": empty,
    "truncated": truncated,
    "random_bytes": random_bytes,
    "initializer_size": initializer_size,
    "initializer_no_data": initializer_no_data,
    "dangling_input": dangling_input,
    "mutual_inputs": mutual_inputs,
    "shape_mismatch": shape_mismatch,
    "absurd_dims": absurd_dims,
    "negative_dim": negative_dim,
    "unknown_op": unknown_op,
    "opset_99": opset_99,
    "no_default_opset": no_default_opset,
    "no_outputs": no_outputs,
    "constant_no_value": constant_no_value,
    "relu_no_inputs": relu_no_inputs,
    "reshape_runtime_shape": reshape_runtime_shape,
    "dynamic_dim": dynamic_dim,
    "external_missing_file": external_missing_file,
    "external_offset": external_offset,
    "output_unproduced": output_unproduced,
    "duplicate_names": duplicate_names,
    "string_input": string_input,
    "conv_transpose_huge_strides": conv_transpose_huge_strides,
    "conv_huge_pads": conv_huge_pads,
    "constant_huge_dims": constant_huge_dims,
    "einsum_missing_input": einsum_missing_input,
    "lstm_huge_hidden": lstm_huge_hidden,
}

# Data files the external-data cases refer to (next to the model).
EXTRA_FILES = {
    "external_offset": {"external_offset.bin": b"\0" * 32},
}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: make_corpus.py OUTDIR [case...]\ncases: " +
                 " ".join(CASES))
    outdir, names = sys.argv[1], sys.argv[2:] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit("make_corpus.py: unknown case(s) %s; cases: %s" %
                 (" ".join(unknown), " ".join(CASES)))
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        m = CASES[name]()
        data = m if isinstance(m, bytes) else m.SerializeToString()
        with open(os.path.join(outdir, name + ".onnx"), "wb") as f:
            f.write(data)
        for fname, content in EXTRA_FILES.get(name, {}).items():
            with open(os.path.join(outdir, fname), "wb") as f:
                f.write(content)


if __name__ == "__main__":
    main()
