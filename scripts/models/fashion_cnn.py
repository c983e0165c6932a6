"""The course's Fashion-MNIST classifier, as a torch module (Debian python3-torch 1.13).

Input `image`: 1x1x28x28 float32 in [0, 1]. Output `logits`: 10 scores in Fashion-MNIST
label order. QuantStub/DeQuantStub are identities in the float model and mark where the
int8 (QNNPACK) variant quantises and dequantises.
"""
import torch
from torch import nn


class FashionCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = torch.quantization.QuantStub()
        self.conv1 = nn.Conv2d(1, 32, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(64 * 7 * 7, 128)
        self.relu3 = nn.ReLU()
        self.dropout = nn.Dropout(0.3)
        self.fc2 = nn.Linear(128, 10)
        self.dequant = torch.quantization.DeQuantStub()

    def forward(self, image):
        x = self.quant(image)
        x = self.pool1(self.relu1(self.conv1(x)))
        x = self.pool2(self.relu2(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = self.dropout(self.relu3(self.fc1(x)))
        logits = self.fc2(x)
        return self.dequant(logits)

    def fuse(self):
        torch.quantization.fuse_modules(
            self, [["conv1", "relu1"], ["conv2", "relu2"], ["fc1", "relu3"]], inplace=True)
