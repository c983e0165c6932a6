"""EfficientNet-Lite0's shape and input convention, shared by the torch module
(efficientnet_lite0.py, Debian's torch) and the Keras port (make_efficientnet_tflite.py, the
venv's TensorFlow), so both build the same network."""

# (kernel, stride, expand ratio, input filters, output filters, repeats) per stage.
STAGES = [
    (3, 1, 1, 32, 16, 1),
    (3, 2, 6, 16, 24, 2),
    (5, 2, 6, 24, 40, 2),
    (3, 2, 6, 40, 80, 3),
    (5, 1, 6, 80, 112, 3),
    (5, 2, 6, 112, 192, 4),
    (3, 1, 6, 192, 320, 1),
]
BN_EPSILON = 1e-3
IMAGE_SIZE = 224
# The normalisation these weights were trained with (TensorFlow EfficientNet-Lite's
# MEAN_RGB = 127, STDDEV_RGB = 128), applied to 0...255 samples.
MEAN, STD = 127.0, 128.0
