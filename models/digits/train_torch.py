#!/usr/bin/python3
"""Trains the digits_mlp or digits_cnn model in PyTorch exactly as its
model.json's `training` section says, as a check of the recipe and as
mlc's PyTorch peer (docs/training.md, bench/train_step.py).

The architecture is an idiomatic nn.Module (nn.Linear, nn.Conv2d, ...), checked
at start-up against a PyTorch interpreter of the model.json graph
(models/mlc_torch.py) on the same weights. The recipe is read from the
model.json: batch_size, loss, optimizer (torch.optim.SGD / Adam with the same
hyper-parameters), init (method "random": the documented distributions,
drawn with numpy's default_rng(init.seed); "weights": the model's weights).
Batching matches `mlc-run --train`: every epoch shuffles the training rows
with one numpy default_rng(--seed) permutation and drops the last partial
batch. Float32 throughout.

Prints one line per epoch (mean training loss over the epoch's steps, test
accuracy after the epoch) and the final test accuracy.

usage: /usr/bin/python3 models/digits/train_torch.py [--model mlp|cnn]
          [--epochs E] [--seed S] [--data DIR] [--json FILE]
Run models/digits/prepare_data.py first.
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
sys.path.insert(0, MODELS)
import mlc_torch  # noqa: E402

MODEL_JSON = {"mlp": os.path.join(MODELS, "digits_mlp", "model.json"),
              "cnn": os.path.join(MODELS, "digits_cnn", "model.json")}
DEFAULT_EPOCHS = {"mlp": 30, "cnn": 30}


class MLP(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(64, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = nn.functional.max_pool2d(torch.relu(self.conv2(x)), 2)
        return self.fc(x.reshape(x.shape[0], 64))


def build(kind):
    """(mlc_torch.Model, nn.Module, {model.json weight name: (parameter,
    transposed?)}) for "mlp" or "cnn"."""
    model = mlc_torch.Model(MODEL_JSON[kind])
    if kind == "mlp":
        hidden = dict((n, s) for n, _, s in model.weight_decls)["fc1.b"][0]
        net = MLP(hidden)
        layers = ("fc1", "fc2")
    else:
        net = CNN()
        layers = ("conv1", "conv2", "fc")
    params = {}
    for layer in layers:
        mod = getattr(net, layer)
        # model.json keeps linear weights as [in, out] (a matmul rhs).
        params[layer + ".w"] = (mod.weight, isinstance(mod, nn.Linear))
        params[layer + ".b"] = (mod.bias, False)
    assert sorted(params) == sorted(n for n, _, _ in model.weight_decls)
    return model, net, params


def set_weights(params, weights):
    with torch.no_grad():
        for name, (p, transposed) in params.items():
            w = torch.from_numpy(np.ascontiguousarray(weights[name]))
            p.copy_(w.t() if transposed else w)


def get_weights(params):
    return {name: (p.detach().t() if transposed else p.detach()).numpy().copy()
            for name, (p, transposed) in params.items()}


def check_against_graph(model, net, params, x):
    """The nn.Module and the model.json graph agree on these weights."""
    with torch.no_grad():
        got = net(torch.from_numpy(x)).numpy()
    ref, _ = mlc_torch.forward(model, get_weights(params), {"x": x})
    ref = ref[model.training["loss"]["output"]].numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-5)


def make_optimizer(model, net):
    o = model.optimizer()
    if o["type"] == "sgd":
        return torch.optim.SGD(net.parameters(), lr=o["lr"],
                               momentum=o["momentum"],
                               weight_decay=o["weight_decay"],
                               nesterov=o["nesterov"])
    return torch.optim.Adam(net.parameters(), lr=o["lr"],
                            betas=(o["beta1"], o["beta2"]), eps=o["epsilon"],
                            weight_decay=o["weight_decay"])


def load_data(kind, data_dir):
    suffix = "_img" if kind == "cnn" else ""
    try:
        return [np.load(os.path.join(data_dir, n + ".npy")) for n in
                ("X_train" + suffix, "y_train", "X_test" + suffix, "y_test")]
    except FileNotFoundError as e:
        sys.exit("train_torch.py: error: %s; run models/digits/prepare_data.py"
                 " first" % e)


def accuracy(net, x, y):
    with torch.no_grad():
        pred = net(torch.from_numpy(x)).argmax(dim=1).numpy()
    return float((pred == y).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    ap.add_argument("--epochs", type=int)
    ap.add_argument("--seed", type=int, default=0,
                    help="shuffle seed (mlc-run --train --seed)")
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--init-seed", type=int,
                    help="override the model.json's init seed (robustness "
                         "checks; mlc draws other numbers anyway)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", help="also write the per-epoch figures here")
    args = ap.parse_args()
    epochs = args.epochs or DEFAULT_EPOCHS[args.model]
    torch.set_num_threads(args.threads)

    model, net, params = build(args.model)
    x_train, y_train, x_test, y_test = load_data(args.model, args.data)
    if args.init_seed is not None:
        model.training["init"]["seed"] = args.init_seed
    set_weights(params, model.initial_weights())
    check_against_graph(model, net, params, x_test[:8])
    opt = make_optimizer(model, net)
    batch = model.training["batch_size"]
    steps = len(y_train) // batch
    rng = np.random.default_rng(args.seed)
    loss_fn = nn.CrossEntropyLoss()
    print("%s: %d train / %d test, batch %d, %d steps per epoch, "
          "optimizer %s, init %s" % (
              model.name, len(y_train), len(y_test), batch, steps,
              json.dumps(model.training["optimizer"]),
              json.dumps(model.training.get("init"))))
    history = []
    start = time.time()
    for epoch in range(1, epochs + 1):
        perm = rng.permutation(len(y_train))
        total = 0.0
        for s in range(steps):
            idx = perm[s * batch:(s + 1) * batch]
            xb = torch.from_numpy(x_train[idx])
            yb = torch.from_numpy(y_train[idx])
            opt.zero_grad()
            loss = loss_fn(net(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item()
        acc = accuracy(net, x_test, y_test)
        history.append({"epoch": epoch, "loss": total / steps,
                        "test_accuracy": acc})
        print("epoch %2d  loss %.4f  test accuracy %.4f" %
              (epoch, total / steps, acc))
    print("final test accuracy %.4f (%d/%d), train accuracy %.4f, %.1f s" % (
        history[-1]["test_accuracy"],
        round(history[-1]["test_accuracy"] * len(y_test)), len(y_test),
        accuracy(net, x_train, y_train), time.time() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"model": model.name, "seed": args.seed,
                       "epochs": history}, f, indent=1)


if __name__ == "__main__":
    main()
