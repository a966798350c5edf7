"""mlc from an installed prefix, with nothing of the build tree on the path:
mlc.from_torch on torchvision's ResNet-18 and a BERT-like encoder (4
post-LN layers, d 256, seq 128, as the model zoo's bert_enc) runs on torch
tensors and matches PyTorch; mlc.compile of a broken ONNX model raises
CompileError naming the node.

usage: from_torch.py PREFIX_PACKAGE_DIR
"""
import sys

import numpy as np
import torch
import torchvision
from onnx import TensorProto, helper

import mlc

assert mlc.__file__.startswith(sys.argv[1]), mlc.__file__
torch.manual_seed(0)


def check(name, module, inputs, rtol, atol):
    model = mlc.from_torch(module, inputs)
    with torch.no_grad():
        want = module.eval()(*inputs).numpy()
    got = model(*inputs)  # torch tensors, viewed through DLPack
    err = float(np.abs(got - want).max())
    assert np.allclose(got, want, rtol=rtol, atol=atol), (name, err)
    print(f"{name}: matches PyTorch (max abs err {err:.2g}), inputs "
          f"{[(n, s) for n, _, s in model.inputs]}")


resnet = torchvision.models.resnet18(weights=None)
check("resnet18", resnet, (torch.randn(1, 3, 224, 224),), 1e-4, 1e-4)

layer = torch.nn.TransformerEncoderLayer(256, 4, dim_feedforward=1024,
                                         dropout=0.0, activation="gelu",
                                         batch_first=True)
encoder = torch.nn.TransformerEncoder(layer, 4)
check("bert_enc", encoder, (torch.randn(1, 128, 256),), 1e-4, 1e-4)

# Relu of an input that is not declared: the error is at the node.
graph = helper.make_graph(
    [helper.make_node("Relu", ["nowhere"], ["y"], name="lost_relu")], "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
try:
    mlc.compile(helper.make_model(graph), source_name="broken")
    raise AssertionError("the broken model compiled")
except mlc.CompileError as e:
    assert "lost_relu" in e.place, e.place
    print("CompileError:", str(e).split(": ", 1)[1])
