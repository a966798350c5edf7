#!/usr/bin/env python3
"""QDQ models with constant scales that are zero, negative or not finite
(qdq-bad-scales.test): OUT/{zero_q,negative_dq,nan_axis}.onnx."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def model(name, op, scale, axis=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    inits = [numpy_helper.from_array(np.asarray(scale, np.float32), "s"),
             numpy_helper.from_array(np.zeros(np.shape(scale), np.uint8),
                                     "z")]
    kw = {} if axis is None else {"axis": axis}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"],
                              name="quant", **kw)]
    if op == "DequantizeLinear":
        nodes.append(helper.make_node("DequantizeLinear", ["q", "s", "z"],
                                      ["y"], name="dequant", **kw))
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    else:
        y = helper.make_tensor_value_info("q", TensorProto.UINT8, [2, 3])
    g = helper.make_graph(nodes, name, [x], [y], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(m, os.path.join(out, name + ".onnx"))


model("zero_q", "QuantizeLinear", 0.0)
model("negative_dq", "DequantizeLinear", -0.5)
model("nan_axis", "QuantizeLinear", [0.5, np.nan, 1.0], axis=1)
