"""Trains the course Fashion-MNIST CNN and writes it as TorchScript, PyTorch Lite and int8.

Run with Debian's /usr/bin/python3 (torch 1.13), never a PyPI torch: the files must load
in Debian's libtorch 1.13.

    PYTHONPATH=scripts/models /usr/bin/python3 scripts/models/make_fashion_torch.py --out notebooks/models

Training has two phases: 6 epochs with Adam at 1e-3 (x0.3 after epoch 4), then 3 epochs with
a fresh Adam at 3e-4 (x0.3 after epoch 2). Batch 128, seeded, 2 torch threads.

Writes fashion_cnn_weights.npz (float weights, read by make_fashion_tflite.py), then
export_fashion_torch.py's files: fashion_cnn.pt, .ptl, fashion_cnn_int8.pt, .ptl.
"""
import argparse
import os
import time

import numpy as np
import torch
from torch import nn

import export_fashion_torch
import fashion_data
from fashion_cnn import FashionCNN


def accuracy(model, images, labels, batch=1000):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(images), batch):
            out = model(torch.from_numpy(images[i:i + batch]))
            correct += int((out.argmax(1).numpy() == labels[i:i + batch]).sum())
    return correct / len(images)


def train(model, images, labels, epochs, seed, lr=1e-3):
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=max(1, epochs // 2 + 1), gamma=0.3)
    loss_fn = nn.CrossEntropyLoss()
    x_all = torch.from_numpy(images)
    y_all = torch.from_numpy(labels)
    for epoch in range(epochs):
        model.train()
        start = time.time()
        order = torch.randperm(len(images), generator=generator)
        total = 0.0
        for i in range(0, len(order), 128):
            idx = order[i:i + 128]
            optimizer.zero_grad()
            loss = loss_fn(model(x_all[idx]), y_all[idx])
            loss.backward()
            optimizer.step()
            total += float(loss) * len(idx)
        scheduler.step()
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(order):.4f} ({time.time() - start:.0f} s)", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="notebooks/models")
    parser.add_argument("--epochs", type=int, default=6, help="phase 1 epochs (Adam 1e-3, x0.3 after epochs/2+1)")
    parser.add_argument("--fine-tune-epochs", type=int, default=3, help="phase 2 epochs (fresh Adam 3e-4)")
    parser.add_argument("--resume-from", default=None,
                        help="phase-1 weights (.npz) to start phase 2 from instead of training phase 1")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    os.makedirs(args.out, exist_ok=True)

    train_x, train_y = fashion_data.load("train")
    test_x, test_y = fashion_data.load("t10k")
    train_f, test_f = fashion_data.as_float(train_x), fashion_data.as_float(test_x)

    model = FashionCNN()
    if args.resume_from:
        arrays = np.load(args.resume_from)
        model.load_state_dict({k: torch.from_numpy(arrays[k]) for k in arrays.files})
    else:
        train(model, train_f, train_y, args.epochs, args.seed)
        model.eval()
        print(f"phase 1 float test accuracy: {accuracy(model, test_f, test_y):.4f}")
    # Phase 2: a fresh optimiser at a lower learning rate, reseeded so that resuming from
    # saved phase-1 weights gives the same result as one full run.
    torch.manual_seed(args.seed + 1)
    train(model, train_f, train_y, args.fine_tune_epochs, args.seed + 1, lr=3e-4)
    model.eval()
    print(f"float test accuracy: {accuracy(model, test_f, test_y):.4f}")
    weights = os.path.join(args.out, "fashion_cnn_weights.npz")
    np.savez(weights, **{k: v.numpy() for k, v in model.state_dict().items()})
    export_fashion_torch.export(weights, args.out, args.seed)


if __name__ == "__main__":
    main()
